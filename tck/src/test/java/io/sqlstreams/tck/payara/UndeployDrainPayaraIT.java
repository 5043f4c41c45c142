package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.UndeployDrainScenario;

/** {@link UndeployDrainScenario} on Payara Micro. */
class UndeployDrainPayaraIT extends UndeployDrainScenario {
}
