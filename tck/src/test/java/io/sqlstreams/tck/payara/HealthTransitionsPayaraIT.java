package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.HealthTransitionsScenario;

/** {@link HealthTransitionsScenario} on Payara Micro. */
class HealthTransitionsPayaraIT extends HealthTransitionsScenario {
}
