package io.sqlstreams.jakarta.messaging;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.IncomingConnectorFactory;
import org.eclipse.microprofile.reactive.messaging.spi.OutgoingConnectorFactory;
import org.eclipse.microprofile.reactive.streams.operators.PublisherBuilder;
import org.eclipse.microprofile.reactive.streams.operators.ReactiveStreams;
import org.eclipse.microprofile.reactive.streams.operators.SubscriberBuilder;

import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.InvalidConfigurationException.Violation;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.ProducerConfig;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineThreads;
import io.sqlstreams.jakarta.ContainerResources;
import io.sqlstreams.jakarta.GroupState;
import io.sqlstreams.jakarta.SqlStreamsRuntime;
import io.sqlstreams.jakarta.StreamRegistration;
import io.sqlstreams.jakarta.config.ChannelGroupBinder;
import io.sqlstreams.jakarta.config.ChannelKeyCheck;
import io.sqlstreams.jakarta.config.GroupSettings;
import io.sqlstreams.messaging.ChannelStatus;
import io.sqlstreams.messaging.IncomingChannel;
import io.sqlstreams.messaging.OutgoingChannel;

/**
 * The {@code sqlstreams} connector of MicroProfile Reactive Messaging: an incoming channel is a consumer group's
 * session ({@link IncomingChannel}), an outgoing channel produces to a stream ({@link OutgoingChannel}), both on the
 * application's client. Registered by the extension only where the Reactive Messaging API is visible.
 */
@ApplicationScoped
@Connector(StreamConnector.NAME)
public class StreamConnector implements IncomingConnectorFactory, OutgoingConnectorFactory {
    public static final String NAME = "sqlstreams";
    private static final Duration PRODUCE_DRAIN = Duration.ofSeconds(10);

    @Inject
    SqlStreamsRuntime runtime;
    @Inject
    ContainerResources resources;

    private final List<IncomingChannel<?>> incoming = new CopyOnWriteArrayList<>();
    private final List<OutgoingChannel> outgoing = new CopyOnWriteArrayList<>();
    private final List<ExecutorService> producing = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopRegistered = new AtomicBoolean();

    @Override
    public PublisherBuilder<? extends Message<?>> getPublisherBuilder(Config config) {
        List<Violation> problems = new ArrayList<>();
        ChannelSettings settings = ChannelSettings.incoming(config, problems);
        GroupSettings group = ChannelGroupBinder.bind(config, settings.address(), settings.keyPrefix(), problems);
        validate(settings, config, problems);
        IncomingChannel<?> channel = incomingChannel(settings, group, settings.payloadType());
        incoming.add(channel);
        stopWithTheApplication();
        Instant opened = runtime.clock().instant();
        runtime.hostChannel(group.address(), () -> health(settings.channel(), channel.status(), opened));
        runtime.afterSessionsStart(channel::start);
        return ReactiveStreams.fromPublisher(channel);
    }

    @Override
    public SubscriberBuilder<? extends Message<?>, Void> getSubscriberBuilder(Config config) {
        List<Violation> problems = new ArrayList<>();
        ChannelSettings settings = ChannelSettings.outgoing(config, problems);
        validate(settings, config, problems);
        StreamRegistration.ifAbsent(runtime.client().stream(settings.stream(), Object.class));
        ExecutorService thread = new EngineThreads(resources.threadFactory())
                .serial("sqlstreams-channel-" + settings.channel());
        producing.add(thread);
        OutgoingChannel channel = new OutgoingChannel(settings.channel(), runtime.client(), settings.stream(),
                ProducerConfig.defaults(), thread);
        outgoing.add(channel);
        stopWithTheApplication();
        return ReactiveStreams.fromSubscriber(channel);
    }

    private void stopWithTheApplication() {
        if (stopRegistered.compareAndSet(false, true)) {
            runtime.beforeSessionsStop(this::stop);
        }
    }

    /** Fails the channel, and with it the deployment, with every problem of its keys in one SQL0108. */
    private static void validate(ChannelSettings settings, Config config, List<Violation> problems) {
        ChannelKeyCheck.check(config, settings.keyPrefix(), problems);
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
    }

    private <T> IncomingChannel<T> incomingChannel(ChannelSettings settings, GroupSettings group,
                                                   Class<T> payloadType) {
        SqlStreams client = runtime.client();
        StreamHandle<T> stream = StreamRegistration.ifAbsent(client.stream(settings.stream(), payloadType));
        ConsumerInstance<T> consumer = stream.consumer(settings.group()).register(group.declaration());
        return new IncomingChannel<>(settings.channel(), consumer, group.options(),
                body -> new EngineThreads(resources.threadFactory())
                        .threadEvenWhenStopping("sqlstreams-channel-stop-" + settings.channel(), body));
    }

    /** A channel's status as its group's state in the health checks. */
    private static GroupState health(String channel, ChannelStatus status, Instant since) {
        return switch (status.stage()) {
            case WAITING -> new GroupState(GroupState.Status.NOT_STARTED, 0, "channel " + channel
                    + " waits for its subscriber and for the application to start", since);
            case RUNNING -> new GroupState(GroupState.Status.RUNNING, 0, null, since);
            case STOPPED -> status.failure() == null ? new GroupState(GroupState.Status.STOPPED, 0, null, since)
                    : new GroupState(GroupState.Status.FAILED, 0, status.failure().toString(), since);
        };
    }

    /**
     * Stops the incoming sessions, lets the outgoing channels finish the produce in hand, then closes them: when the
     * application stops, before its sessions drain and its client closes. Registered with the runtime rather than as
     * {@code @PreDestroy}: Payara's deployment scanner loads every class carrying a Jakarta lifecycle annotation, and
     * this one cannot load where the application has no Reactive Messaging (AS-DEPLOYMENT-00011).
     */
    private void stop() {
        incoming.forEach(IncomingChannel::close);
        producing.forEach(ExecutorService::shutdown);
        for (ExecutorService thread : producing) {
            try {
                thread.awaitTermination(PRODUCE_DRAIN.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        outgoing.forEach(OutgoingChannel::close);
    }
}
