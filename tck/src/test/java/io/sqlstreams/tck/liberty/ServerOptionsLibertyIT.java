package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ServerOptionsScenario;

/** {@link ServerOptionsScenario} on Open Liberty. */
class ServerOptionsLibertyIT extends ServerOptionsScenario {

    /** server-config's server.xml sets the variable {@code sqlstreams.defaults.message-concurrency}. */
    @Override
    protected int serverMessageConcurrency() {
        return 4;
    }
}
