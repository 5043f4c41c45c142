package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

import io.sqlstreams.tck.RedeclarationScenario;

/** {@link RedeclarationScenario} on Open Liberty. */
class RedeclarationLibertyIT extends RedeclarationScenario {

    /** Liberty runs every deployment in the one server, which logs to messages.log. */
    @Override
    protected Path serverLog(String deployment) {
        return LibertyServer.messagesLog();
    }
}
