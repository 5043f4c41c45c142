package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.ManagerScenario;

/** {@link ManagerScenario} on Payara Micro. */
class ManagerPayaraIT extends ManagerScenario {
}
