package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.ConsoleScenario;

/** {@link ConsoleScenario} on Payara Micro, whose file realm has the console users (src/test/payara). */
class ConsolePayaraIT extends ConsoleScenario {
}
