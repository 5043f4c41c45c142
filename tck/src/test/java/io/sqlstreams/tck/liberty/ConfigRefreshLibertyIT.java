package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ConfigRefreshScenario;

/** {@link ConfigRefreshScenario} on Open Liberty. */
class ConfigRefreshLibertyIT extends ConfigRefreshScenario {
}
