package io.sqlstreams.tck.payara;

import java.nio.file.Path;

import io.sqlstreams.tck.TransactionalObserverScenario;

/** {@link TransactionalObserverScenario} on Payara Micro. */
class TransactionalObserverPayaraIT extends TransactionalObserverScenario {
    @Override
    protected Path serverLog(String deployment) {
        return PayaraMicro.logOf(deployment);
    }
}
