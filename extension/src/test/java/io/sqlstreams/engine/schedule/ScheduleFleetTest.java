package io.sqlstreams.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.engine.BackgroundManager;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;

/**
 * Three clients each run a system manager against one installation while a {@code * * * * *} schedule comes due
 * three times (the first manager stops after the first message, so the producer may change hands): exactly one
 * message per due minute reaches the consumer group, each with its minute as {@code scheduledAt}. Takes about
 * four minutes of wall-clock time, as schedules are a minute apart at the least.
 */
@PostgresTest
class ScheduleFleetTest extends EngineTestBase {
    private static final int DUE_TIMES = 3;
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    @SchemaVersion(1)
    public record Tick(String source) {
    }

    private record Received(long messageId, Instant scheduledAt, String messageKey) {
    }

    @Test
    void threeManagersProduceEachDueMinuteExactlyOnce() {
        StreamHandle<Tick> stream = client.stream("fleet.ticks", Tick.class);
        stream.register(StreamConfig.builder().deliveryLogMode(DeliveryLogMode.ALL).build());
        client.system().register(new SystemConfig(Duration.ofMillis(500)));
        List<Received> received = new CopyOnWriteArrayList<>();
        List<EngineClient> clients = List.of(client, EngineFixtures.client(database, new RecordingLogger()),
                EngineFixtures.client(database, new RecordingLogger()));
        List<BackgroundManager> managers = new ArrayList<>();
        clients.forEach(each -> managers.add(BackgroundManager.start(each)));
        try (ConsumerSession session = stream.consumer("ticks").register().start(tick -> {
            MessageMeta meta = MessageMeta.current();
            received.add(new Received(meta.messageId(), meta.scheduledAt(), meta.messageKey()));
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(100)).build())) {
            client.scheduler("each-minute").register("fleet.ticks", "* * * * *", new Tick("cron"), null);

            await().atMost(PATIENCE).until(() -> !received.isEmpty());
            managers.remove(0).close();
            await().atMost(PATIENCE).until(() -> received.size() >= DUE_TIMES);
        } finally {
            managers.forEach(BackgroundManager::close);
        }

        List<Instant> due = received.stream().map(Received::scheduledAt).toList();
        assertThat(due).as("no duplicates").doesNotHaveDuplicates();
        assertThat(received).extracting(Received::messageKey).containsOnly("each-minute");
        Instant first = due.get(0);
        assertThat(first).isEqualTo(first.truncatedTo(ChronoUnit.MINUTES));
        for (int i = 1; i < due.size(); i++) {
            assertThat(due.get(i)).as("due time %d follows the one before by a minute, none missing", i)
                    .isEqualTo(due.get(i - 1).plus(Duration.ofMinutes(1)));
        }
        Instant newest = due.get(due.size() - 1);
        assertThat(client.scheduler("each-minute").get().lastScheduledAt()).as("or one more, produced as we stopped")
                .isIn(newest, newest.plus(Duration.ofMinutes(1)));
    }
}
