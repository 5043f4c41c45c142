package io.sqlstreams.tck.payara;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;

import fish.payara.arquillian.container.payara.managed.PayaraMicroContainerConfiguration;
import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import io.sqlstreams.tck.ThreadDumps;

/** The Payara Micro process that runs one deployment, and the adapter that started it. */
final class MicroProcess {
    /** Draining the sessions (each within its ShutdownTimeout, about 32 s by default) and Micro's own shutdown. */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

    private final Archive<?> archive;
    private final PayaraMicroDeployableContainer adapter;
    private final Process process;
    private final ProtocolMetaData metaData;
    private final int httpPort;

    private MicroProcess(Archive<?> archive, PayaraMicroDeployableContainer adapter, Process process,
                         ProtocolMetaData metaData, int httpPort) {
        this.archive = archive;
        this.adapter = adapter;
        this.process = process;
        this.metaData = metaData;
        this.httpPort = httpPort;
    }

    /** Starts Micro with {@code archive} through an adapter of its own; returns once the application is deployed. */
    static MicroProcess start(Archive<?> archive, PayaraMicroContainerConfiguration configuration, int httpPort)
            throws DeploymentException {
        PayaraMicroDeployableContainer adapter = new PayaraMicroDeployableContainer();
        adapter.setup(configuration);
        ProtocolMetaData metaData;
        try {
            metaData = adapter.deploy(archive);
        } catch (DeploymentException | RuntimeException e) {
            Process started = processOf(adapter);
            if (started != null) {
                started.destroyForcibly();
                closeOutput(started);
            }
            throw e;
        }
        Process process = processOf(adapter);
        if (process == null) {
            throw new DeploymentException("Payara Micro did not start for " + archive.getName());
        }
        ThreadDumps.register("Payara Micro running " + archive.getName(), process.toHandle());
        MicroProcess started = new MicroProcess(archive, adapter, process, metaData, httpPort);
        if (metaData == null || !started.runsTheApplication()) {
            started.stop();
            throw new DeploymentException("Payara Micro started but did not deploy " + archive.getName() + ": see "
                    + PayaraMicro.logOf(deploymentOf(archive)));
        }
        return started;
    }

    /** The deployment's name: its archive's, without the extension. */
    static String deploymentOf(Archive<?> archive) {
        return archive.getName().replaceFirst("\\.war$", "");
    }

    ProtocolMetaData metaData() {
        return metaData;
    }

    int httpPort() {
        return httpPort;
    }

    /**
     * Ends the process and waits until it has exited. Micro stops as its JVM shuts down: it undeploys the
     * application, whose sessions drain, and then exits.
     */
    void stop() throws DeploymentException {
        adapter.undeploy(archive);
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                String threads = dumpThreads();
                process.destroyForcibly();
                throw new DeploymentException("Payara Micro running " + archive.getName() + " did not exit within "
                        + STOP_TIMEOUT + "; killed it (its threads before the kill: " + threads + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new DeploymentException("interrupted while Payara Micro running " + archive.getName() + " stopped",
                    e);
        } finally {
            ThreadDumps.forget(process.toHandle());
            closeOutput(process);
        }
    }

    /**
     * The hung process's thread dump, printed into the test output and written beside its log, so that a Micro that
     * does not exit can be diagnosed after the kill; answers where it went.
     */
    private String dumpThreads() {
        Path dump = PayaraMicro.logOf(deploymentOf(archive)).resolveSibling(deploymentOf(archive) + ".threads.txt");
        String threads = ThreadDumps.print("Payara Micro running " + archive.getName() + " did not exit within "
                + STOP_TIMEOUT, process.pid(), "Payara Micro running " + archive.getName());
        try {
            Files.writeString(dump, threads, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "printed above; not written to " + dump + ": " + e.getMessage();
        }
        return "printed above and in " + dump;
    }

    /** Whether Micro reported a servlet of the application in its deployment summary. */
    private boolean runsTheApplication() {
        String contextRoot = "/" + deploymentOf(archive);
        return metaData.getContexts(HTTPContext.class).stream().flatMap(context -> context.getServlets().stream())
                .anyMatch(servlet -> servlet.getContextRoot().equals(contextRoot));
    }

    /**
     * The adapter's thread that reads the process's output never ends by itself: at the end of the output it keeps
     * reading nothing, at full speed. Closing the stream makes its next read fail, which ends it.
     */
    private static void closeOutput(Process process) {
        try {
            process.getInputStream().close();
        } catch (IOException e) {
            System.err.println("cannot close the output of Payara Micro process " + process.pid() + ": " + e);
        }
    }

    /** The adapter keeps the process it started to itself, and the suite needs it (see stop and closeOutput). */
    private static Process processOf(PayaraMicroDeployableContainer adapter) {
        try {
            Field field = PayaraMicroDeployableContainer.class.getDeclaredField("payaraMicroProcess");
            field.setAccessible(true);
            return (Process) field.get(adapter);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the Payara Micro adapter no longer keeps its process where version "
                    + "3.1 did", e);
        }
    }
}
