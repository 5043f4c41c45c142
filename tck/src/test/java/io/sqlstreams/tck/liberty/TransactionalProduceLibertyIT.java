package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.TransactionalProduceScenario;

/** {@link TransactionalProduceScenario} on Open Liberty. */
class TransactionalProduceLibertyIT extends TransactionalProduceScenario {
}
