package io.sqlstreams.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.Code;
import io.sqlstreams.Concurrency;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import io.sqlstreams.ProduceResult;
import io.sqlstreams.Schedule;
import io.sqlstreams.ScheduleGroupStatus;
import io.sqlstreams.ScheduleRunOptions;
import io.sqlstreams.ScheduledMessage;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.SchedulerInstance;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamConfig;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.testing.PostgresTest;

/** Digest §7.4: registering schedules, their verbs, and the schedule producer's ticks on a real database. */
@PostgresTest
class SchedulesTest extends EngineTestBase {
    @SchemaVersion(2)
    public record Report(String kind) {
    }

    public record Unversioned(String kind) {
    }

    /** One message of a schedule as the stream's log holds it. */
    private record Logged(long id, String routingKey, String messageKey, Instant scheduledAt, String concurrency,
                          String timeout, int schemaVersion, String payload) {
    }

    @Test
    void aRegisteredScheduleIsStoredAndDueAtItsFirstTimeAfterTheDatabaseClock() {
        stream("reports", DeliveryLogMode.ALL);
        Instant before = Instant.now().minusSeconds(5);

        SchedulerInstance<Report> instance = client.scheduler("nightly-report").register("reports", " 30 4 * * * ",
                new Report("nightly"), SchedulerConfig.defaults().withTimeout(Duration.ofMinutes(5))
                        .withConcurrency(Concurrency.EXCLUSIVE).withMetadata("{\"owner\": \"finance\"}"));

        assertThat(instance.name()).isEqualTo("nightly-report");
        assertThat(instance.payloadType()).isEqualTo(Report.class);
        Schedule stored = client.scheduler("nightly-report").get();
        assertThat(stored.stream()).isEqualTo("reports");
        assertThat(stored.expression()).isEqualTo("30 4 * * *");
        assertThat(stored.suspended()).isFalse();
        assertThat(stored.schemaVersion()).isEqualTo(2);
        assertThat(stored.payload()).isEqualTo("{\"kind\": \"nightly\"}");
        assertThat(stored.config()).isEqualTo(new SchedulerConfig(Duration.ofMinutes(5), Concurrency.EXCLUSIVE,
                "{\"owner\": \"finance\"}"));
        assertThat(stored.lastScheduledAt()).isNull();
        Instant next = stored.nextScheduledAt();
        assertThat(next.atZone(java.time.ZoneOffset.UTC).toLocalTime()).isEqualTo(java.time.LocalTime.of(4, 30));
        assertThat(next).isAfter(before).isBefore(before.plus(Duration.ofDays(1)).plusSeconds(10));
        assertThat(logger.withCode("SQL0058")).isEmpty();
        assertThat(client.schedules()).filteredOn(schedule -> schedule.name().equals("nightly-report"))
                .containsExactly(stored);
    }

    @Test
    void aDifferingRedeclarationWinsAndLogsWhatChangedAndAnEqualOneLogsNothing() {
        stream("digests", DeliveryLogMode.ALL);
        SchedulerHandle digest = client.scheduler("daily-digest");
        digest.register("digests", "@daily", new Report("digest"), SchedulerConfig.defaults());
        Instant firstNext = digest.get().nextScheduledAt();

        digest.register("digests", "@daily", new Report("digest"), SchedulerConfig.defaults());
        assertThat(logger.withCode("SQL0062")).isEmpty();

        digest.register("digests", "@hourly", new Report("digest v2"), SchedulerConfig.defaults()
                .withTimeout(Duration.ofSeconds(45)));

        assertThat(logger.withCode("SQL0062")).singleElement().asString().contains("schedule \"daily-digest\"",
                "expression @daily -> @hourly", "payload {\"kind\": \"digest\"} -> {\"kind\":\"digest v2\"}",
                "timeout 30s -> 45s");
        Schedule replaced = digest.get();
        assertThat(replaced.expression()).isEqualTo("@hourly");
        assertThat(replaced.nextScheduledAt()).as("re-seeded for the new expression: the next whole hour")
                .isEqualTo(replaced.nextScheduledAt().truncatedTo(ChronoUnit.HOURS))
                .isBetween(Instant.now().minusSeconds(5), Instant.now().plus(Duration.ofHours(1)))
                .isBeforeOrEqualTo(firstNext);
    }

    @Test
    void aStreamThatLogsNoSuccessesIsWarnedAbout() {
        stream("unlogged", DeliveryLogMode.FAILURES);

        client.scheduler("unlogged-tick").register("unlogged", "@hourly", new Report("tick"), null);

        assertThat(logger.withCode("SQL0058")).singleElement().asString().contains("schedule \"unlogged-tick\"",
                "stream \"unlogged\"", "failures");
    }

    @ParameterizedTest
    @ValueSource(strings = {"@every 30s", "61 * * * *", "TZ=Nowhere/City * * * * *", "0 0 30 2 *", "@reboot", ""})
    void aBadExpressionIsRefusedWithItsCodeAndNothingIsStored(String expression) {
        stream("refused", DeliveryLogMode.ALL);
        SchedulerHandle handle = client.scheduler("refused-" + Math.abs(expression.hashCode()));

        assertThatThrownBy(() -> handle.register("refused", expression, new Report("x"), null))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, invalid -> assertThat(
                        invalid.violations()).singleElement().satisfies(violation -> {
                            assertThat(violation.property()).isEqualTo("expression");
                            assertThat(violation.value()).isEqualTo(expression);
                        }));
        assertThatThrownBy(handle::get).isInstanceOfSatisfying(SqlStreamsException.class,
                missing -> assertThat(missing.code().id()).isEqualTo("SQL0013"));
    }

    @Test
    void badDeclarationsAreRefusedWithTheirCodes() {
        stream("checked", DeliveryLogMode.ALL);

        assertThatThrownBy(() -> client.scheduler("no-stream").register("absent", "@hourly", new Report("x"), null))
                .isInstanceOfSatisfying(SqlStreamsException.class, e -> assertThat(e.code().id())
                        .isEqualTo("SQL0005"));
        assertThatThrownBy(() -> client.scheduler("bad name!").register("checked", "@hourly", new Report("x"), null))
                .isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> client.scheduler("ordered").register("checked", "@hourly", new Report("x"),
                SchedulerConfig.defaults().withConcurrency(Concurrency.ORDERED)))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("schedulerConfig.concurrency");
        assertThatThrownBy(() -> client.scheduler("meta").register("checked", "@hourly", new Report("x"),
                SchedulerConfig.defaults().withMetadata("[1, 2]")))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("schedulerConfig.metadata");
        assertThatThrownBy(() -> client.scheduler("unversioned").register("checked", "@hourly",
                new Unversioned("x"), null)).isInstanceOfSatisfying(SqlStreamsException.class,
                        e -> assertThat(e.code()).isEqualTo(Code.SQL0134))
                .hasMessageContaining(Unversioned.class.getName() + " has no @SchemaVersion");
        assertThatThrownBy(() -> client.scheduler("no-payload").register("checked", "@hourly", null, null))
                .isInstanceOf(InvalidConfigurationException.class);
        for (String name : List.of("no-stream", "ordered", "meta", "unversioned", "no-payload")) {
            assertThatThrownBy(() -> client.scheduler(name).get()).as(name).isInstanceOfSatisfying(
                    SqlStreamsException.class, e -> assertThat(e.code().id()).isEqualTo("SQL0013"));
        }
    }

    @Test
    void afterDowntimeOneTickProducesOnlyTheNewestDueTimeOnceWithItsDeterministicKey() throws SQLException {
        StreamHandle<Report> stream = stream("minutely", DeliveryLogMode.ALL);
        client.scheduler("every-minute").register("minutely", "* * * * *", new Report("tick"),
                SchedulerConfig.defaults().withConcurrency(Concurrency.EXCLUSIVE));
        moveCursor("every-minute", "date_trunc('minute', now()) - interval '3 minutes'");
        ScheduleProducer producer = new ScheduleProducer(EngineFixtures.engine(database, logger));

        producer.tick();
        producer.tick();

        List<Logged> logged = logged(stream.get().orElseThrow().id());
        assertThat(logged).singleElement().satisfies(message -> {
            assertThat(message.routingKey()).isEqualTo("every-minute");
            assertThat(message.messageKey()).isEqualTo("every-minute");
            assertThat(message.concurrency()).isEqualTo("exclusive");
            assertThat(message.timeout()).isEqualTo("30s");
            assertThat(message.schemaVersion()).isEqualTo(2);
            assertThat(message.payload()).isEqualTo("{\"kind\": \"tick\"}");
            assertThat(message.scheduledAt()).isEqualTo(message.scheduledAt().truncatedTo(ChronoUnit.MINUTES))
                    .isBetween(Instant.now().minusSeconds(120), Instant.now());
        });
        Schedule after = client.scheduler("every-minute").get();
        Instant produced = logged.get(0).scheduledAt();
        assertThat(after.lastScheduledAt()).isEqualTo(produced);
        assertThat(after.nextScheduledAt()).isAfter(Instant.now().minusSeconds(1)).isAfter(produced)
                .isEqualTo(after.nextScheduledAt().truncatedTo(ChronoUnit.MINUTES));
        assertThat(keysClaimed(stream.get().orElseThrow().id(), ScheduleIdempotencyKey.of(scheduleId("every-minute"), produced)))
                .isOne();

        moveCursor("every-minute", "last_scheduled_at");
        producer.tick();
        assertThat(logged(stream.get().orElseThrow().id())).as("the replay of that due time is deduplicated").hasSize(1);
        assertThat(logger.withCode("SQL0037")).singleElement().asString().contains("schedule \"every-minute\"",
                produced.toString());
    }

    @Test
    void aSuspendedScheduleNeverProducesRunProducesOnceAndUnsuspendDropsTheMissedTimes() throws SQLException {
        StreamHandle<Report> stream = stream("paused", DeliveryLogMode.ALL);
        SchedulerHandle paused = client.scheduler("paused-minute");
        paused.register("paused", "* * * * *", new Report("paused"), null);
        paused.suspend();
        paused.suspend();
        moveCursor("paused-minute", "now() - interval '5 minutes'");
        Schedule suspended = paused.get();
        ScheduleProducer producer = new ScheduleProducer(EngineFixtures.engine(database, logger));

        producer.tick();
        assertThat(logged(stream.get().orElseThrow().id())).as("suspended: nothing").isEmpty();

        Instant beforeRun = Instant.now().minusSeconds(1);
        ProduceResult ran = paused.run(ScheduleRunOptions.defaults());
        assertThat(ran.duplicate()).isFalse();
        assertThat(logged(stream.get().orElseThrow().id())).singleElement().satisfies(message -> {
            assertThat(message.id()).isEqualTo(ran.id());
            assertThat(message.scheduledAt()).isAfter(beforeRun);
            assertThat(message.concurrency()).isEqualTo("parallel");
        });
        Schedule afterRun = paused.get();
        assertThat(afterRun.nextScheduledAt()).as("run moves nothing").isEqualTo(suspended.nextScheduledAt());
        assertThat(afterRun.lastScheduledAt()).isNull();

        paused.unsuspend();
        Schedule resumed = paused.get();
        assertThat(resumed.suspended()).isFalse();
        assertThat(resumed.nextScheduledAt()).as("re-seeded from now: the missed minutes are dropped")
                .isAfter(Instant.now().minusSeconds(1));
        producer.tick();
        assertThat(logged(stream.get().orElseThrow().id())).hasSize(1);
    }

    @Test
    void destroyNeedsAllowDestroyAndLeavesTheMessages() {
        StreamHandle<Report> stream = stream("kept", DeliveryLogMode.ALL);
        client.scheduler("doomed").register("kept", "@hourly", new Report("doomed"), null);
        client.scheduler("doomed").run(null);

        EngineClient guarded = EngineClient.create(database.dataSource(), ClientConfig.builder()
                .schema(database.schema()).logger(logger).build(), EngineEnvironment.standalone());
        assertThatThrownBy(() -> guarded.scheduler("doomed").destroy()).isInstanceOfSatisfying(
                SqlStreamsException.class, e -> assertThat(e.code().id()).isEqualTo("SQL0008"));
        assertThat(client.scheduler("doomed").get().name()).isEqualTo("doomed");
        SchedulerHandle destroying = client.scheduler("doomed");
        destroying.destroy();

        assertThatThrownBy(() -> client.scheduler("doomed").get()).isInstanceOfSatisfying(
                SqlStreamsException.class, e -> assertThat(e.code().id()).isEqualTo("SQL0013"));
        assertThatThrownBy(destroying::destroy).isInstanceOfSatisfying(
                SqlStreamsException.class, e -> assertThat(e.code().id()).isEqualTo("SQL0013"));
        for (Runnable verb : List.<Runnable>of(() -> client.scheduler("doomed").suspend(),
                () -> client.scheduler("doomed").unsuspend(), () -> client.scheduler("doomed").run(null))) {
            assertThatThrownBy(verb::run).isInstanceOfSatisfying(SqlStreamsException.class,
                    e -> assertThat(e.code().id()).isEqualTo("SQL0013"));
        }
        assertThat(logged(stream.get().orElseThrow().id())).hasSize(1);
    }

    /** m1 and m2 come before any session (m2 supersedes m1), m2 succeeds, m3 is dead-lettered; "idle" never runs. */
    @Test
    void statusAndMessagesTellWhatBecameOfEveryMessageInEveryGroup() {
        StreamHandle<Report> stream = stream("audited", DeliveryLogMode.ALL);
        stream.consumer("audit").register();
        stream.consumer("idle").register();
        SchedulerHandle audited = client.scheduler("audited-run");
        audited.register("audited", "@daily", new Report("audit"), null);
        long m1 = audited.run(null).id();
        long m2 = audited.run(null).id();
        drain(stream, 0, m2);
        long m3 = audited.run(null).id();
        drain(stream, m3, m3);

        assertThat(audited.status()).containsExactly(new ScheduleGroupStatus("audit", 2, 1, 1, 1),
                new ScheduleGroupStatus("idle", 0, 0, 0, 0));
        List<ScheduledMessage> messages = audited.messages(10);
        assertThat(messages).extracting(ScheduledMessage::id).containsExactly(m3, m2, m1);
        assertThat(messages).extracting(message -> message.outcomes().get("audit")).containsExactly(
                ScheduledMessage.Outcome.FAILED, ScheduledMessage.Outcome.SUCCEEDED,
                ScheduledMessage.Outcome.SUPERSEDED);
        assertThat(messages).extracting(message -> message.outcomes().get("idle"))
                .containsOnly(ScheduledMessage.Outcome.PENDING);
        assertThat(messages).extracting(ScheduledMessage::nextId).containsExactly(null, m3, m2);
        assertThat(audited.messages(1)).extracting(ScheduledMessage::id).containsExactly(m3);
        assertThat(messages.get(0).scheduledAt()).isBetween(messages.get(0).createdAt().minusSeconds(5),
                messages.get(0).createdAt());

        assertThatThrownBy(() -> audited.messages(0)).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("limit");
        for (Runnable read : List.<Runnable>of(() -> client.scheduler("never").status(),
                () -> client.scheduler("never").messages(5))) {
            assertThatThrownBy(read::run).isInstanceOfSatisfying(SqlStreamsException.class,
                    e -> assertThat(e.code().id()).isEqualTo("SQL0013"));
        }
    }

    /**
     * The producer writes the due message A under the schedule's concurrency and its handler outlives the next
     * message B (a run, under the same concurrency): exclusive, B is deferred until A returns; parallel, B runs
     * while A still does.
     */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"EXCLUSIVE", "PARALLEL"})
    void aRunThatOutlivesTheNextOneHoldsItBackOnlyWhenExclusive(Concurrency concurrency) throws Exception {
        String name = "overlap-" + concurrency.wireName();
        StreamHandle<Report> stream = stream(name, DeliveryLogMode.ALL);
        SchedulerHandle schedule = client.scheduler(name);
        schedule.register(name, "* * * * *", new Report("long"), SchedulerConfig.defaults()
                .withConcurrency(concurrency).withTimeout(Duration.ofSeconds(20)));
        moveCursor(name, "now() - interval '1 minute'");
        new ScheduleProducer(EngineFixtures.engine(database, logger)).tick();
        long first = logged(stream.get().orElseThrow().id()).get(0).id();
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Map<Long, Instant> started = new ConcurrentHashMap<>();
        Map<Long, Instant> ended = new ConcurrentHashMap<>();
        try (ConsumerSession session = stream.consumer("runner").register().start(report -> {
            long id = MessageMeta.current().messageId();
            started.put(id, Instant.now());
            if (id == first) {
                releaseFirst.await();
            }
            ended.put(id, Instant.now());
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).messageConcurrency(4).build())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> started.containsKey(first));
            long second = schedule.run(new ScheduleRunOptions(concurrency)).id();

            if (concurrency == Concurrency.EXCLUSIVE) {
                await().atMost(Duration.ofSeconds(30)).until(() -> schedule.messages(2).get(0).outcomes()
                        .get("runner") == ScheduledMessage.Outcome.DEFERRED);
                assertThat(started).as("the second waits while the first runs").doesNotContainKey(second);
            } else {
                await().atMost(Duration.ofSeconds(30)).until(() -> started.containsKey(second));
                assertThat(ended).as("the second ran while the first still did").doesNotContainKey(first);
            }
            releaseFirst.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> ended.containsKey(second));
            if (concurrency == Concurrency.EXCLUSIVE) {
                assertThat(started.get(second)).isAfterOrEqualTo(ended.get(first));
            }
        } finally {
            releaseFirst.countDown();
        }
    }

    /** Runs the "audit" group until it committed {@code until}; message {@code poison} is dead-lettered. */
    private static void drain(StreamHandle<Report> stream, long poison, long until) {
        try (ConsumerSession session = stream.consumer("audit").register().start(report -> {
            if (MessageMeta.current().messageId() == poison) {
                throw Outcome.terminal("the third run is poison");
            }
        }, ConsumeOptions.builder().claimPollRate(Duration.ofMillis(20)).build())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.consumer("audit").inspect().committed() >= until);
        }
    }

    private StreamHandle<Report> stream(String name, DeliveryLogMode mode) {
        StreamHandle<Report> stream = client.stream(name, Report.class);
        stream.register(StreamConfig.builder().deliveryLogMode(mode).build());
        return stream;
    }

    /** Sets the schedule's next due time to {@code next}, an SQL expression: as if the producer had been away. */
    private void moveCursor(String schedule, String next) throws SQLException {
        database.execute("UPDATE " + database.schema() + ".schedule_cursor SET next_scheduled_at = " + next
                + " WHERE schedule_id = (SELECT id FROM " + database.schema() + ".schedule_config WHERE name = '"
                + schedule + "')");
    }

    private List<Logged> logged(long streamId) {
        List<Logged> rows = new ArrayList<>();
        query("SELECT id, routing_key, message_key, schema_version, payload::text AS payload,"
                + " options->>'scheduled_at' AS scheduled_at, options->>'concurrency' AS concurrency,"
                + " options->>'timeout' AS timeout FROM " + database.schema() + ".message_log_" + streamId
                + " ORDER BY id", row -> rows.add(new Logged(row.getLong("id"), row.getString("routing_key"),
                row.getString("message_key"), Instant.parse(row.getString("scheduled_at")),
                row.getString("concurrency"), row.getString("timeout"), row.getInt("schema_version"),
                row.getString("payload"))));
        return rows;
    }

    private long scheduleId(String name) {
        List<Long> ids = new ArrayList<>();
        query("SELECT id FROM " + database.schema() + ".schedule_config WHERE name = '" + name + "'",
                row -> ids.add(row.getLong("id")));
        return ids.get(0);
    }

    private long keysClaimed(long streamId, UUID key) {
        List<Long> counts = new ArrayList<>();
        query("SELECT count(*) AS claimed FROM " + database.schema() + ".idempotency_key_" + streamId
                + " WHERE idempotency_key = '" + key + "'", row -> counts.add(row.getLong("claimed")));
        return counts.get(0);
    }

    private void query(String sql, RowReader reader) {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                reader.read(rows);
            }
        } catch (SQLException failed) {
            throw new IllegalStateException(failed);
        }
    }

    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet row) throws SQLException;
    }
}
