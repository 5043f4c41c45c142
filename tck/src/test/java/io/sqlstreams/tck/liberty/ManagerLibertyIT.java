package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ManagerScenario;

/** {@link ManagerScenario} on Open Liberty. */
class ManagerLibertyIT extends ManagerScenario {
}
