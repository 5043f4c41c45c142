package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.UndeployDrainScenario;

/** {@link UndeployDrainScenario} on Open Liberty. */
class UndeployDrainLibertyIT extends UndeployDrainScenario {
}
