package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.OutcomesScenario;

/** {@link OutcomesScenario} on Open Liberty. */
class OutcomesLibertyIT extends OutcomesScenario {
}
