package io.sqlstreams.tck.payara;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;

import fish.payara.arquillian.container.payara.managed.PayaraMicroContainerConfiguration;
import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import io.sqlstreams.tck.ServerCoordinates;

/**
 * Payara Micro as the suite's server: every deployment runs in a Micro process of its own, started by an adapter of
 * its own, with its own log file. A process listens on the HTTP port of bootstrap.properties, which the tests call,
 * unless another process has it; then it takes the next port none of them has. Undeploying ends the deployment's
 * process and waits until it has exited, so its application has drained.
 */
public final class OneMicroPerDeployment implements DeployableContainer<PayaraMicroContainerConfiguration> {
    private final Map<String, MicroProcess> running = new LinkedHashMap<>();
    private PayaraMicroContainerConfiguration configuration;

    @Override
    public Class<PayaraMicroContainerConfiguration> getConfigurationClass() {
        return PayaraMicroContainerConfiguration.class;
    }

    @Override
    public void setup(PayaraMicroContainerConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new PayaraMicroDeployableContainer().getDefaultProtocol();
    }

    /** Starts with an empty log directory: Micro appends to a log file that exists. */
    @Override
    public void start() throws LifecycleException {
        Path logs = PayaraMicro.logs();
        try {
            if (Files.exists(logs)) {
                try (Stream<Path> old = Files.walk(logs)) {
                    for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            }
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new LifecycleException("cannot empty the Payara Micro log directory " + logs, e);
        }
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String deployment = MicroProcess.deploymentOf(archive);
        if (running.containsKey(deployment)) {
            throw new DeploymentException(deployment + " is deployed already");
        }
        int httpPort = unusedHttpPort();
        MicroProcess process = MicroProcess.start(archive, configurationFor(deployment, httpPort), httpPort);
        running.put(deployment, process);
        return process.metaData();
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        MicroProcess process = running.remove(MicroProcess.deploymentOf(archive));
        if (process != null) {
            process.stop();
        }
    }

    /** Stops the processes of deployments that were never undeployed, e.g. after a failed test. */
    @Override
    public void stop() throws LifecycleException {
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, MicroProcess> left : running.entrySet()) {
            try {
                left.getValue().stop();
            } catch (DeploymentException e) {
                failures.add(left.getKey() + ": " + e.getMessage());
            }
        }
        running.clear();
        if (!failures.isEmpty()) {
            throw new LifecycleException("Payara Micro processes did not stop: " + failures);
        }
    }

    private int unusedHttpPort() {
        int port = ServerCoordinates.current().httpPort();
        while (portTaken(port)) {
            port++;
        }
        return port;
    }

    private boolean portTaken(int port) {
        return running.values().stream().anyMatch(process -> process.httpPort() == port);
    }

    /**
     * The shared configuration plus this deployment's options: its log file, and its port where that is not the one
     * preboot.txt sets. The copy is validated (which reads Micro's version from the jar) before the shared options
     * join it: validating escapes the spaces in paths, and the shared options have been through that already.
     */
    private PayaraMicroContainerConfiguration configurationFor(String deployment, int httpPort) {
        List<String> options = new ArrayList<>(List.of("--logtofile", PayaraMicro.logOption(deployment).toString()));
        if (httpPort != ServerCoordinates.current().httpPort()) {
            options.addAll(List.of("--port", Integer.toString(httpPort)));
        }
        PayaraMicroContainerConfiguration own = new PayaraMicroContainerConfiguration();
        own.setMicroJar(configuration.getMicroJar());
        own.setStartupTimeoutInSeconds(configuration.getStartupTimeoutInSeconds());
        own.setClusterEnabled(configuration.isClusterEnabled());
        own.setRandomHttpPort(configuration.isRandomHttpPort());
        own.setAutoBindHttp(configuration.isAutoBindHttp());
        own.setOutputToConsole(configuration.isOutputToConsole());
        own.setDebug(configuration.isDebug());
        own.setExtraMicroOptions(String.join(" ", options));
        own.validate();
        own.setCmdOptions(configuration.getCmdOptions());
        if (configuration.getExtraMicroOptions() != null) {
            own.setExtraMicroOptions(configuration.getExtraMicroOptions() + " " + own.getExtraMicroOptions());
        }
        return own;
    }
}
