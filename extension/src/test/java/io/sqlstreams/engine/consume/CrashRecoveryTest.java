package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.DeliveryLogMode;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.Outcome;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.DeliveryLedger.Result;
import io.sqlstreams.engine.consume.DeliveryTables.ExceptionRow;
import io.sqlstreams.engine.consume.DeliveryTables.Lease;
import io.sqlstreams.engine.consume.DeliveryTables.LogRow;
import io.sqlstreams.testing.PostgresTest;

/**
 * Crash recovery with real crashes: a consumer JVM ({@link CrashingConsumerMain}) is killed with SIGKILL while
 * it holds leased ranges, and a session in this JVM must reclaim them after the lease and handle every message;
 * a message that kills its consumer every time gets its range quarantined; and a graceful stop commits what
 * finished and gives the rest back.
 */
@PostgresTest
class CrashRecoveryTest extends DeliveryTestBase {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String QUARANTINED = "quarantined: range reclaimed too many times";

    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(Child::kill);
    }

    @Test
    void aKilledConsumersRangesAreReclaimedAfterTheLeaseAndNothingIsLost() throws Exception {
        DeliveryScenario scenario = scenario("crash", CrashingConsumerMain.declaration(), 25);
        Child child = spawn(scenario, -1);

        String started = child.awaitLine("started ");
        child.kill();
        long crashedOn = Long.parseLong(started.split(" ")[1]);
        List<Lease> orphaned = scenario.tables().leases();
        assertThat(orphaned).as("ranges the killed consumer held").isNotEmpty()
                .allSatisfy(lease -> assertThat(lease.reclaims()).isZero());
        assertThat(orphaned.get(0).low()).isLessThan(crashedOn);
        assertThat(orphaned.get(0).high()).isGreaterThanOrEqualTo(crashedOn);

        ConsumerSession session = start(scenario, ledger.succeeding(), survivorOptions().build());
        await().atMost(PATIENCE).until(() -> ledger.succeeded().containsAll(scenario.ids())
                && scenario.tables().cursor().committed() >= scenario.last());

        ledger.assertEachSucceededOnce(scenario.ids());
        assertThat(session.counters().reclaimed()).isEqualTo(orphaned.size());
        List<String> reclaims = logger.withCode("SQL0026");
        assertThat(reclaims).hasSize(orphaned.size());
        for (Lease lease : orphaned) {
            assertThat(reclaims).anySatisfy(line -> assertThat(line)
                    .contains("range (" + lease.low() + ", " + lease.high() + "] reclaims=1"));
        }
        assertThat(scenario.tables().leases()).isEmpty();
        assertThat(scenario.tables().exceptions()).isEmpty();
        System.out.println("CrashRecoveryTest: killed consumer started " + child.lines("started ") + "; "
                + orphaned.size() + " range(s) reclaimed; re-delivered across the crash: " + child.lines("started ").size());
    }

    /**
     * A reclaimed range keeps its original size, while ConsumeOptions may differ between instances of a group: a
     * session whose queue is smaller than a crashed peer's range must still take the range over.
     */
    @Test
    void aRangeLargerThanTheReclaimingSessionsQueueIsStillHandled() throws Exception {
        DeliveryScenario scenario = scenario("smaller", CrashingConsumerMain.declaration(), 10);
        Child child = spawn(scenario, -1);
        child.awaitLine("started ");
        child.kill();
        assertThat(scenario.tables().leases()).extracting(Lease::low, Lease::high).containsExactly(tuple(0L, 10L));

        ConsumerSession session = start(scenario, ledger.succeeding(),
                CrashingConsumerMain.options().batchLimit(2).messageConcurrency(2).build());

        await().atMost(Duration.ofSeconds(15)).until(() -> session.counters().reclaimed() == 1);
        await().atMost(Duration.ofSeconds(5))
                .failFast("the session failed", () -> session.failure().isPresent())
                .untilAsserted(() -> assertThat(ledger.succeeded()).as("handled after the reclaim of (0, 10]")
                        .containsExactlyInAnyOrderElementsOf(scenario.ids()));
        assertThat(scenario.tables().leases()).isEmpty();
    }

    @Test
    void aMessageThatKillsItsConsumerEveryTimeGetsItsRangeQuarantined() throws Exception {
        DeliveryScenario scenario = scenario("poison", CrashingConsumerMain.declaration(), 10);
        long poisonPayload = 4;
        long poison = scenario.ids().get((int) poisonPayload - 1);
        for (int run = 0; run < ConsumerConfig.DEFAULT_MAX_RANGE_RECLAIMS; run++) {
            Child child = spawn(scenario, poisonPayload);
            child.awaitLine("started " + poison + " ");
            child.kill();
            assertThat(scenario.tables().leases()).as("the range after crash %d", run + 1)
                    .extracting(Lease::low, Lease::high, Lease::reclaims)
                    .containsExactly(tuple(0L, scenario.last(), run));
            assertThat(child.lines("handled ")).as("only siblings succeed in crash %d", run + 1)
                    .noneMatch(line -> line.equals("handled " + poison));
        }

        CountDownLatch inspected = new CountDownLatch(1);
        ConsumerSession session = start(scenario, ledger.handler((message, meta) -> {
            inspected.await();
            if (meta.messageId() == poison) {
                throw Outcome.terminal("poison " + meta.messageId());
            }
        }), survivorOptions().batchLimit(1).build());

        await().atMost(PATIENCE).until(() -> !logger.withCode("SQL0027").isEmpty());
        List<ExceptionRow> quarantined = scenario.tables().exceptions();
        List<LogRow> audit = scenario.tables().log();
        inspected.countDown();

        assertThat(logger.withCode("SQL0027")).singleElement().asString()
                .contains("range (0, " + scenario.last() + "]").contains("after 3 reclaims");
        assertThat(session.counters().quarantined()).isEqualTo(1);
        assertThat(quarantined).extracting(ExceptionRow::messageId).containsExactlyElementsOf(scenario.ids());
        assertThat(quarantined).allSatisfy(row -> assertThat(row.lastError()).isEqualTo(QUARANTINED));
        assertThat(quarantined).filteredOn(row -> !row.status().equals("ready"))
                .as("rows already claimed by the exception path (batch 1)").hasSizeLessThanOrEqualTo(1)
                .allSatisfy(row -> assertThat(row.status()).isEqualTo("inflight"));
        assertThat(quarantined).filteredOn(row -> row.status().equals("ready"))
                .allSatisfy(row -> assertThat(row.attempts()).isZero());
        assertThat(audit).extracting(LogRow::messageId, LogRow::attempt, LogRow::status, LogRow::error)
                .containsExactlyElementsOf(scenario.ids().stream().map(id -> tuple(id, 0, "failure", QUARANTINED)).toList());

        List<Long> siblings = scenario.ids().stream().filter(id -> id != poison).toList();
        ExceptionRow dead = await().atMost(PATIENCE).until(() -> scenario.tables().exception(poison).orElseThrow(),
                row -> row.status().equals("dead"));
        await().atMost(PATIENCE).until(() -> ledger.succeeded().containsAll(siblings)
                && scenario.tables().exceptions().size() == 1);
        assertThat(dead.lastError()).contains("delivery cannot succeed: poison " + poison);
        assertThat(ledger.runsOf(poison)).extracting(DeliveryLedger.Run::result).last().isEqualTo(Result.TERMINAL);
        assertThat(ledger.succeeded()).containsExactlyInAnyOrderElementsOf(siblings);
        assertThat(scenario.tables().leases()).isEmpty();
        await().atMost(PATIENCE).until(() -> scenario.tables().cursor().committed() >= scenario.last());
    }

    @Test
    void aGracefulStopCommitsTheFinishedPrefixAndGivesTheRestBackAtOnce() throws Exception {
        ConsumerConfig declaration = ConsumeFixtures.quickRetries(3, Duration.ofSeconds(2));
        DeliveryScenario scenario = scenario("graceful", declaration, 20);
        List<Long> ids = scenario.ids();
        long failsOnce = ids.get(2);
        List<Long> slow = List.of(ids.get(4), ids.get(5));
        ConsumeOptions options = ConsumeFixtures.fastSession().batchLimit(10).queueSize(20).messageConcurrency(2)
                .queueMargin(Duration.ofSeconds(1)).build();
        ConsumerSession first = start(scenario, ledger.handler((message, meta) -> {
            if (meta.messageId() == failsOnce) {
                throw new IllegalStateException("fails before the stop");
            }
            if (slow.contains(meta.messageId())) {
                Thread.sleep(800);
            }
        }), options);

        await().atMost(PATIENCE).pollInterval(5, TimeUnit.MILLISECONDS).until(() ->
                slow.stream().allMatch(id -> ledger.runCount(id) == 1) && scenario.tables().leases().size() == 2);
        first.close();

        List<Long> finished = ids.subList(0, 6);
        assertThat(ledger.handled()).as("started before the stop").containsExactlyInAnyOrderElementsOf(finished);
        assertThat(finished).allSatisfy(id -> assertThat(ledger.runsOf(id)).singleElement()
                .extracting(DeliveryLedger.Run::result).isNotEqualTo(Result.UNFINISHED));
        List<Lease> leases = scenario.tables().leases();
        assertThat(leases).extracting(Lease::low, Lease::high, Lease::reclaims, Lease::expired).containsExactly(
                tuple(ids.get(5), ids.get(9), -1, true),
                tuple(ids.get(9), ids.get(19), -1, true));
        ExceptionRow failed = scenario.tables().exception(failsOnce).orElseThrow();
        assertThat(failed.status()).isEqualTo("ready");
        assertThat(failed.lastError()).contains("fails before the stop");
        assertThat(scenario.tables().log(failsOnce)).extracting(LogRow::attempt, LogRow::status)
                .containsExactly(tuple(0, "failure"));
        assertThat(scenario.tables().cursor().committed()).as("committed stops below the unresolved failure")
                .isEqualTo(failsOnce - 1);

        EngineClient restarted = EngineFixtures.client(database, logger);
        ConsumerInstance<Numbered> again = restarted.stream("graceful", Numbered.class).consumer("graceful.g")
                .register(declaration);
        ConsumerSession second = DeliveryScenario.startSession(again, ledger.succeeding(), options, sessions);
        await().atMost(PATIENCE).until(() -> ledger.succeeded().containsAll(ids)
                && scenario.tables().cursor().committed() >= scenario.last());

        assertThat(logger.withCode("SQL0026")).anySatisfy(line -> assertThat(line)
                .contains("range (" + ids.get(9) + ", " + ids.get(19) + "] reclaims=0"));
        assertThat(logger.withCode("SQL0026")).anySatisfy(line -> assertThat(line)
                .contains("range (" + ids.get(5) + ", " + ids.get(9) + "] reclaims=0"));
        assertThat(second.counters().reclaimed()).isEqualTo(2);
        for (long id : ids) {
            List<Result> results = ledger.runsOf(id).stream().map(DeliveryLedger.Run::result).toList();
            if (id == failsOnce) {
                assertThat(results).as("runs of %d", id).containsExactly(Result.FAILURE, Result.SUCCESS);
            } else {
                assertThat(results).as("runs of %d", id).containsExactly(Result.SUCCESS);
            }
        }
        assertThat(scenario.tables().leases()).isEmpty();
        assertThat(scenario.tables().exceptions()).isEmpty();
    }

    /**
     * Sixteen handlers of one range finish together (a barrier releases them at once) while {@code close()} drains
     * them: every outcome is in before the stop settles the range, so the range must be committed whole and
     * nothing may run again. Three rounds, each on a stream of its own, because the failure this guards against
     * is a race.
     */
    @Test
    void aGracefulStopRecordsTheOutcomesOfHandlersThatFinishDuringTheDrain() throws Exception {
        int size = 16;
        ConsumerConfig declaration = ConsumeFixtures.quickRetries(3, Duration.ofSeconds(2));
        ConsumeOptions options = ConsumeFixtures.fastSession().batchLimit(size).messageConcurrency(size)
                .queueMargin(Duration.ofSeconds(1)).build();
        Map<String, List<Lease>> leftBehind = new TreeMap<>();
        Map<String, Long> successCounters = new TreeMap<>();
        Map<DeliveryScenario, DeliveryLedger> rounds = new LinkedHashMap<>();
        for (int round = 1; round <= 3; round++) {
            DeliveryScenario scenario = scenario("drain." + round, declaration, size);
            DeliveryLedger own = new DeliveryLedger();
            rounds.put(scenario, own);
            CountDownLatch allStarted = new CountDownLatch(size);
            CyclicBarrier finishTogether = new CyclicBarrier(size);
            ConsumerSession session = start(scenario, own.handler((message, meta) -> {
                allStarted.countDown();
                allStarted.await();
                Thread.sleep(300);
                finishTogether.await();
            }), options);
            await().atMost(PATIENCE).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> own.handled().size() == size);

            session.close();

            assertThat(own.succeeded()).as("every handler returned during the drain")
                    .containsExactlyInAnyOrderElementsOf(scenario.ids());
            successCounters.put(scenario.stream().name(), session.counters().success());
            List<Lease> leases = scenario.tables().leases();
            if (!leases.isEmpty()) {
                leftBehind.put(scenario.stream().name(), leases);
            }
        }
        rounds.forEach((scenario, own) -> scenario.start(own.succeeding(), options, sessions));
        rounds.forEach((scenario, own) -> await().atMost(PATIENCE)
                .until(() -> scenario.tables().cursor().committed() >= scenario.last()));
        Map<String, Map<Long, Integer>> rerun = new TreeMap<>();
        rounds.forEach((scenario, own) -> {
            if (!own.duplicates().isEmpty()) {
                rerun.put(scenario.stream().name(), own.duplicates());
            }
        });

        System.out.println("CrashRecoveryTest drain rounds: success counters " + successCounters + ", leases left "
                + leftBehind + ", re-run " + rerun);
        assertThat(leftBehind).as("leases left after a stop whose handlers had all returned").isEmpty();
        assertThat(successCounters).as("success counters at the stop").allSatisfy((name, count) ->
                assertThat(count).isEqualTo(size));
        assertThat(rerun).as("messages that succeeded before the stop and ran again (id -> runs)").isEmpty();
    }

    /**
     * The exception path claims due rows in a batch and runs them one by one; a graceful stop in the middle of
     * the batch must hand the rows it never ran back, without spending their retry budget. Here MaxRetries 1
     * leaves each failed message exactly one retry: A's retry is running when the stop comes, B was claimed with
     * it and never ran.
     */
    @Test
    void aGracefulStopGivesBackExceptionRowsItClaimedButNeverRan() throws Exception {
        DeliveryScenario scenario = scenario("handback", ConsumeFixtures.quickRetries(1, Duration.ofSeconds(1)), 2);
        long running = scenario.ids().get(0);
        long claimedOnly = scenario.ids().get(1);
        ConsumeOptions options = ConsumeFixtures.fastSession().batchLimit(10).queueMargin(Duration.ofSeconds(1)).build();
        ConsumerSession first = start(scenario, ledger.handler((message, meta) -> {
            if (meta.attempt() == 1) {
                throw new IllegalStateException("first run fails");
            }
            if (meta.messageId() == running) {
                Thread.sleep(300);
            }
        }), options);
        await().atMost(PATIENCE).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> ledger.runCount(running) == 2);
        assertThat(scenario.tables().exception(claimedOnly).orElseThrow().status())
                .as("B was claimed in the same batch as A").isEqualTo("inflight");

        first.close();

        ExceptionRow afterStop = scenario.tables().exception(claimedOnly).orElseThrow();
        assertThat(ledger.runCount(claimedOnly)).as("B's retry never ran before the stop").isEqualTo(1);
        assertThat(scenario.tables().exception(running)).as("A's retry succeeded during the drain").isEmpty();
        start(scenario, ledger.succeeding(), options);
        await().atMost(PATIENCE).until(() -> scenario.tables().exception(claimedOnly)
                .map(row -> row.status().equals("dead")).orElse(true));
        Optional<ExceptionRow> finalRow = scenario.tables().exception(claimedOnly);
        System.out.println("CrashRecoveryTest hand-back: B after the stop " + afterStop.status() + " attempts="
                + afterStop.attempts() + "; finally " + finalRow.map(row -> row.status() + " attempts=" + row.attempts()
                + " killed=" + row.lastError().contains("[killed:")).orElse("no row") + "; B's runs " + ledger.runsOf(claimedOnly).stream().map(DeliveryLedger.Run::result).toList()
                + "; SQL0031 " + logger.withCode("SQL0031"));

        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(afterStop.status()).as("B's row after the stop").isEqualTo("ready");
            softly.assertThat(afterStop.attempts()).as("B's attempts after the stop (no run was spent)").isZero();
            softly.assertThat(finalRow).as("B's row at the end: its one retry ran and succeeded").isEmpty();
            softly.assertThat(ledger.runsOf(claimedOnly)).extracting(DeliveryLedger.Run::result)
                    .as("B's runs").containsExactly(Result.FAILURE, Result.SUCCESS);
            softly.assertThat(logger.withCode("SQL0031")).as("crash-loop kills after a graceful stop").isEmpty();
        });
    }

    /**
     * A consumer killed after it claimed an exception row and before the row's handler started has not run it
     * (defect 6.2): five such crashes in a row cost the message nothing, although with MaxRetries 1 the crash-loop
     * backstop would have killed it after the first if a claim counted as a run. A run whose handler started and
     * then died does count: after two (the first run and its one retry), the backstop marks the message dead
     * (SQL0031) without running it again. The first delivery never starts either: the first stalled child's
     * executor still holds it at its timeout, so it goes to the exception path deferred, no run counted (-1).
     */
    @Test
    void claimsKilledBeforeTheirHandlerStartedCostNoRunWhileAKilledRunDoes() throws Exception {
        DeliveryScenario scenario = scenario("unstarted", CrashingConsumerMain.exceptionPathDeclaration(), 1);
        long id = scenario.ids().get(0);
        for (int kill = 1; kill <= 5; kill++) {
            Child child = spawn(scenario, -1, CrashingConsumerMain.Handlers.STALLED);
            awaitExceptionClaim(scenario, id, kill - 1);
            child.kill();
            assertThat(child.lines("started ")).as("no handler started in stalled child %d", kill).isEmpty();
            assertThat(scenario.tables().exception(id).orElseThrow().attempts())
                    .as("attempts after stalled claim %d: no run counted", kill).isEqualTo(-1);
        }
        for (int run = 0; run <= 1; run++) {
            Child crashing = spawn(scenario, 1, CrashingConsumerMain.Handlers.RUNNING);
            crashing.awaitLine("started " + id + " ");
            awaitExceptionClaim(scenario, id, 5 + run);
            crashing.kill();
            assertThat(scenario.tables().exception(id).orElseThrow().attempts())
                    .as("attempts once handler %d started", run).isEqualTo(run);
        }

        start(scenario, ledger.succeeding(), survivorOptions().build());
        ExceptionRow dead = await().atMost(PATIENCE).until(() -> scenario.tables().exception(id).orElseThrow(),
                row -> row.status().equals("dead"));

        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.lastError()).contains("[killed: crash-loop hit max attempts]");
        // the backstop logs SQL0031 once its statement has committed, so the line may come just after the row
        assertThat(await().atMost(PATIENCE).until(() -> logger.withCode("SQL0031"), lines -> !lines.isEmpty()))
                .singleElement().asString().contains("1 in-flight exception row(s)");
        assertThat(ledger.runsOf(id)).as("the survivor never ran it").isEmpty();
        assertThat(scenario.tables().log(id)).extracting(LogRow::attempt, LogRow::status).containsExactly(
                tuple(0, "deferred"), tuple(-1, "expired"), tuple(-1, "expired"), tuple(-1, "expired"),
                tuple(-1, "expired"), tuple(-1, "expired"), tuple(0, "expired"), tuple(1, "killed"));
    }

    /**
     * Waits until a child claimed the exception row of {@code id}: in flight under a lease, its earlier {@code
     * expiredClaims} claims logged as expired by the claims that took over from them. Fails at once if the row
     * turns dead.
     */
    private static void awaitExceptionClaim(DeliveryScenario scenario, long id, int expiredClaims) {
        await().atMost(PATIENCE).pollInterval(5, TimeUnit.MILLISECONDS)
                .failFast("the message is dead", () -> scenario.tables().exception(id)
                        .map(row -> row.status().equals("dead")).orElse(false))
                .until(() -> scenario.tables().exception(id)
                        .filter(row -> row.status().equals("inflight") && row.leased()).isPresent()
                        && scenario.tables().log(id).stream().filter(row -> row.status().equals("expired"))
                        .count() == expiredClaims);
    }

    // ---------------------------------------------------------------------------------------------------

    private DeliveryScenario scenario(String name, ConsumerConfig declaration, int count) {
        return DeliveryScenario.create(client, database, name, DeliveryLogMode.FAILURES, declaration, count);
    }

    /**
     * The surviving session in this JVM: the crashed process's options, with a queue margin wide enough that its
     * own ranges never go stale on a loaded machine (the crashed process's leases decide when reclaims happen).
     */
    private static ConsumeOptions.Builder survivorOptions() {
        return CrashingConsumerMain.options().queueMargin(Duration.ofSeconds(5));
    }

    private ConsumerSession start(DeliveryScenario scenario, MessageHandler<Numbered> handler, ConsumeOptions options) {
        return scenario.start(handler, options, sessions);
    }

    private Child spawn(DeliveryScenario scenario, long poisonPayload) throws IOException {
        return spawn(scenario, Long.toString(poisonPayload));
    }

    /** A child for an exception-path test ({@link CrashingConsumerMain.Handlers}). */
    private Child spawn(DeliveryScenario scenario, long poisonPayload, CrashingConsumerMain.Handlers handlers)
            throws IOException {
        return spawn(scenario, Long.toString(poisonPayload), handlers.name());
    }

    private Child spawn(DeliveryScenario scenario, String... arguments) throws IOException {
        Child child = Child.start(((HikariDataSource) database.dataSource()).getJdbcUrl(), database.schema(),
                scenario.stream().name(), scenario.group(), arguments);
        children.add(child);
        return child;
    }

    /** A {@link CrashingConsumerMain} JVM and the lines it printed. */
    private static final class Child {
        private final Process process;
        private final Path stderr;
        private final List<String> lines = new CopyOnWriteArrayList<>();

        private Child(Process process, Path stderr) {
            this.process = process;
            this.stderr = stderr;
            Thread reader = new Thread(this::read, "crashing-consumer-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(String url, String schema, String stream, String group, String... arguments)
                throws IOException {
            Path stderr = Files.createTempFile("crashing-consumer-", ".log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                    "-cp", System.getProperty("java.class.path"), CrashingConsumerMain.class.getName(),
                    url, schema, stream, group));
            command.addAll(List.of(arguments));
            Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            return new Child(process, stderr);
        }

        private void read() {
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (IOException closed) {
                // the process died
            }
        }

        /** Waits for the first line starting with {@code prefix}; fails with the child's stderr if it dies. */
        String awaitLine(String prefix) {
            return await().atMost(PATIENCE).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> {
                if (!process.isAlive() && lines(prefix).isEmpty()) {
                    throw new AssertionError("the consumer JVM exited with " + process.exitValue() + ": "
                            + Files.readString(stderr));
                }
                return lines(prefix).stream().findFirst().orElse(null);
            }, line -> line != null);
        }

        List<String> lines(String prefix) {
            return lines.stream().filter(line -> line.startsWith(prefix)).toList();
        }

        /** SIGKILL, then wait for the process to be gone. */
        void kill() {
            process.destroyForcibly();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("the consumer JVM survived SIGKILL");
                }
                Files.deleteIfExists(stderr);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
