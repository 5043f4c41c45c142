package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ProduceItem;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Producer;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;

@PostgresTest
class SmokeTest {
    @SchemaVersion(1)
    public record Payment(String orderId, long cents) {
    }

    @Test
    void registersAndProduces(TestDatabase database) {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        StreamHandle<Payment> stream = client.stream("payments.requested", Payment.class);
        stream.register(StreamConfig.builder().partitionSize(10L).build());
        try (Producer<Payment> producer = stream.producer().register()) {
            ProduceResult one = producer.produce(new Payment("o-1", 100));
            assertThat(one.id()).isEqualTo(1);
            List<ProduceResult> many = producer.produceBatch(java.util.stream.IntStream.range(0, 25)
                    .mapToObj(i -> ProduceItem.of(new Payment("o-" + i, i))).toList());
            assertThat(many).hasSize(25).allMatch(r -> !r.duplicate());
        }
    }
}
