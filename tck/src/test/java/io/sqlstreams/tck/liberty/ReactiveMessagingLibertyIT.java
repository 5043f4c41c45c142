package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

import io.sqlstreams.tck.ReactiveMessagingScenario;

/** {@link ReactiveMessagingScenario} on Open Liberty's mpReactiveMessaging-3.0. */
class ReactiveMessagingLibertyIT extends ReactiveMessagingScenario {

    @Override
    protected Path serverLog(String deployment) {
        return LibertyServer.messagesLog();
    }
}
