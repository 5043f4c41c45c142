package io.sqlstreams.tck.payara;

import java.nio.file.Path;

import io.sqlstreams.tck.RedeclarationScenario;

/** {@link RedeclarationScenario} on Payara Micro. */
class RedeclarationPayaraIT extends RedeclarationScenario {

    /** Each deployment runs in a Micro process of its own, which logs to a file of its own. */
    @Override
    protected Path serverLog(String deployment) {
        return PayaraMicro.logOf(deployment);
    }
}
