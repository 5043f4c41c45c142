package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.OutcomesScenario;

/** {@link OutcomesScenario} on Payara Micro. */
class OutcomesPayaraIT extends OutcomesScenario {
}
