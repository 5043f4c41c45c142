package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.CrashRecoveryScenario;
import io.sqlstreams.tck.ForkedServer;

/** {@link CrashRecoveryScenario} on Open Liberty. */
class CrashRecoveryLibertyIT extends CrashRecoveryScenario {

    @Override
    protected ForkedServer forkedServer() {
        return new ForkedLibertyServer();
    }
}
