package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.TransactionalProduceScenario;

/** {@link TransactionalProduceScenario} on Payara Micro. */
class TransactionalProducePayaraIT extends TransactionalProduceScenario {
}
