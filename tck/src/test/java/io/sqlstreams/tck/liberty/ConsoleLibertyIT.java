package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ConsoleScenario;

/** {@link ConsoleScenario} on Open Liberty. */
class ConsoleLibertyIT extends ConsoleScenario {
}
