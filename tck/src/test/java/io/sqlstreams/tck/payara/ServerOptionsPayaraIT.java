package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.ServerOptionsScenario;

/** {@link ServerOptionsScenario} on Payara Micro. */
class ServerOptionsPayaraIT extends ServerOptionsScenario {

    /** server-config's postboot.txt sets {@code sqlstreams.defaults.message-concurrency} with set-config-property. */
    @Override
    protected int serverMessageConcurrency() {
        return 4;
    }
}
