package io.sqlstreams.tck.payara;

import io.sqlstreams.tck.CrashRecoveryScenario;
import io.sqlstreams.tck.ForkedServer;

/** {@link CrashRecoveryScenario} on Payara Micro. */
class CrashRecoveryPayaraIT extends CrashRecoveryScenario {

    @Override
    protected ForkedServer forkedServer() {
        return new ForkedPayaraMicro();
    }
}
