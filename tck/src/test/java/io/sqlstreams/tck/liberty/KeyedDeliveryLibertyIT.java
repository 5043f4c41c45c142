package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.KeyedDeliveryScenario;

/** {@link KeyedDeliveryScenario} on Open Liberty. */
class KeyedDeliveryLibertyIT extends KeyedDeliveryScenario {
}
