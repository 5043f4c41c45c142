package io.sqlstreams.tck.payara;

import java.nio.file.Path;

import io.sqlstreams.tck.ReactiveMessagingScenario;

/**
 * {@link ReactiveMessagingScenario} on Payara Micro, which has no Reactive Messaging of its own: the deployments
 * bundle SmallRye Reactive Messaging in {@code WEB-INF/lib} (the payara profile of the tck pom).
 */
class ReactiveMessagingPayaraIT extends ReactiveMessagingScenario {

    /** Each deployment runs in a Micro process of its own, with its own log. */
    @Override
    protected Path serverLog(String deployment) {
        return PayaraMicro.logOf(deployment);
    }
}
