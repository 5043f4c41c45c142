package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

import io.sqlstreams.tck.TransactionalObserverScenario;

/** {@link TransactionalObserverScenario} on Open Liberty. */
class TransactionalObserverLibertyIT extends TransactionalObserverScenario {
    @Override
    protected Path serverLog(String deployment) {
        return LibertyServer.messagesLog();
    }
}
