package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ScheduleScenario;

/** {@link ScheduleScenario} on Open Liberty. */
class ScheduleLibertyIT extends ScheduleScenario {
}
