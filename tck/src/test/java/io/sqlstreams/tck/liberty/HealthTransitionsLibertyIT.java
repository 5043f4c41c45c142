package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.HealthTransitionsScenario;

/** {@link HealthTransitionsScenario} on Open Liberty. */
class HealthTransitionsLibertyIT extends HealthTransitionsScenario {
}
