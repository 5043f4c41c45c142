package io.sqlstreams.tck.payara;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;

/**
 * Puts {@link OneMicroPerDeployment} in the place of the Payara Micro managed adapter's container. The adapter starts
 * a Micro process on deploy and signals it to stop on undeploy, but it keeps one process at a time, does not wait for
 * it to exit, leaves a thread spinning on its finished output, and stops nothing at the end. The replacement gives
 * every deployment an adapter and a process of its own, waits for each to exit, ends the spinning thread, and stops
 * what is left when the suite ends. Registered on the class path of the Payara run only
 * ({@code src/test/payara/resources}).
 */
public final class PayaraMicroProcesses implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.override(DeployableContainer.class, PayaraMicroDeployableContainer.class,
                OneMicroPerDeployment.class);
    }
}
