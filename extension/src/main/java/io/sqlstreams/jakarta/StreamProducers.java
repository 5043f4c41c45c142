package io.sqlstreams.jakarta;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import io.sqlstreams.engine.HostedClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;

/**
 * Serves {@code @StreamName} injection points: a stream's handle, and its transactional producer. One engine
 * producer per stream and payload type is registered on first use, shared by every injection point, and closed
 * (its pending batches committed) with the application.
 */
@ApplicationScoped
public class StreamProducers {
    private final Map<String, HostedClient.HostedProducer<?>> producers = new ConcurrentHashMap<>();

    @Inject
    SqlStreamsRuntime runtime;
    @Inject
    ContainerResources resources;

    @Produces
    @Dependent
    @StreamName("")
    <T> StreamHandle<T> stream(InjectionPoint point) {
        return runtime.client().stream(streamName(point), payloadType(point));
    }

    @Produces
    @Dependent
    @StreamName("")
    <T> Producer<T> producer(InjectionPoint point) {
        String stream = streamName(point);
        Class<T> payload = payloadType(point);
        @SuppressWarnings("unchecked")
        HostedClient.HostedProducer<T> engine = (HostedClient.HostedProducer<T>) producers.computeIfAbsent(
                stream + "|" + payload.getName(), key -> {
                    StreamRegistration.ifAbsent(runtime.client().stream(stream, payload));
                    return runtime.hostedClient().registerProducer(stream, payload);
                });
        return new TransactionalProducer<>(stream, engine, runtime.dataSource(), resources);
    }

    @PreDestroy
    void closeProducers() {
        producers.values().forEach(Producer::close);
    }

    static String streamName(InjectionPoint point) {
        return point.getQualifiers().stream().filter(StreamName.class::isInstance).map(StreamName.class::cast)
                .findFirst().orElseThrow().value();
    }

    /** The payload class of {@code Producer<T>} or {@code StreamHandle<T>}; null when the type names none. */
    static Class<?> payloadClass(Type injected) {
        if (injected instanceof ParameterizedType generic
                && generic.getActualTypeArguments()[0] instanceof Class<?> payload) {
            return payload;
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static <T> Class<T> payloadType(InjectionPoint point) {
        return (Class<T>) payloadClass(point.getType());
    }
}
