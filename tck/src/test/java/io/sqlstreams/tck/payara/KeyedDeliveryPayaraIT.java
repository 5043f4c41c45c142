package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.KeyedDeliveryScenario;

/** {@link KeyedDeliveryScenario} on Payara Micro. */
class KeyedDeliveryPayaraIT extends KeyedDeliveryScenario {
}
