package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.ConfigRefreshScenario;

/** {@link ConfigRefreshScenario} on Payara Micro. */
class ConfigRefreshPayaraIT extends ConfigRefreshScenario {
}
