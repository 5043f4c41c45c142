package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.ScheduleScenario;

/** {@link ScheduleScenario} on Payara Micro. */
class SchedulePayaraIT extends ScheduleScenario {
}
