package io.sqlstreams.tck.liberty;

import java.nio.file.Path;

import io.sqlstreams.tck.RedeclarationScenario;

/** {@link RedeclarationScenario} on Open Liberty. */
class RedeclarationLibertyIT extends RedeclarationScenario {

    @Override
    protected Path serverLog() {
        return LibertyServer.messagesLog();
    }
}
