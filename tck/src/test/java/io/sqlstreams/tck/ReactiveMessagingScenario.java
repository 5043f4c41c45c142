package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.PageRequest;
import io.sqlstreams.ProduceItem;
import io.sqlstreams.Producer;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.reactive.ReactiveCharges;
import io.sqlstreams.tck.deployment.reactive.ReactiveRefunds;
import io.sqlstreams.tck.deployment.reactive.ReceiptJournal;

/**
 * The sqlstreams connector of MicroProfile Reactive Messaging: an {@code @Incoming} method on a channel configured
 * with {@code connector=sqlstreams} receives every message of the stream once, as the group's deliveries; a nack
 * retries after the configured backoff, a terminal nack dead-letters; ordered keys stay in order across two
 * deployments of the channel's group; what the method sends through an {@code Emitter} on an outgoing channel
 * arrives, with its message key, on that channel's stream, which the channel registered, and reaches a
 * {@code @ConsumerGroup} observer of it, and a receipt in hand at the undeploy is written or nacked, never dropped. Bad
 * channel configuration
 * fails the deployment with every problem in one SQL0108.
 */
public abstract class ReactiveMessagingScenario extends TckScenario {
    private static final String APPLICATION = "reactive-messaging";
    private static final String SCHEMA = "tck_reactive_messaging";
    private static final String CHANNEL = "mp.messaging.incoming." + ReactiveCharges.CHANNEL + ".";
    private static final String RECEIPTS = "mp.messaging.outgoing." + ReactiveCharges.RECEIPTS + ".";
    private static final String REFUNDS = "mp.messaging.incoming." + ReactiveRefunds.CHANNEL + ".";
    private static final String KEYED_SCHEMA = "tck_reactive_keyed";
    private static final List<String> KEYED = List.of("reactive-keyed-a", "reactive-keyed-b");
    private static final String BAD = "reactive-bad-configuration";
    private static final int MESSAGES = 100;
    private static final int WAITING_MESSAGES = 20;
    private static final String WAITING_CHARGE = "waiting-charge";
    private static final String WAITING_RECEIPT = "waiting-receipt";
    private static final String UNDEPLOYING = "reactive-undeploying";
    private static final String UNDEPLOYING_STREAM = "payments.undeploying";
    private static final String UNDEPLOYED = "undeployed";
    private static final int IN_HAND_MESSAGES = 2000;
    private static final Duration BACKOFF = Duration.ofSeconds(2);

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.journalling(APPLICATION, ReactiveCharges.class.getPackage(), SCHEMA, withOtherChannels(Map.of(
                CHANNEL + "connector", "sqlstreams",
                CHANNEL + "stream", Payment.STREAM,
                CHANNEL + "group", ReactiveCharges.GROUP,
                CHANNEL + "payload-type", Payment.class.getName(),
                CHANNEL + "message.timeout", "15s",
                CHANNEL + "message.retry.max-retries", "3",
                CHANNEL + "exception-initial-backoff", BACKOFF.toMillis() + "ms",
                CHANNEL + "claim-poll-rate", "100ms")));
    }

    /**
     * The application with its payments channel on a stream and group of its own, whose backlog the undeploy leaves
     * to nobody else.
     */
    @Deployment(name = UNDEPLOYING, managed = false, testable = false)
    public static WebArchive undeploying() {
        return ApplicationArchive.journalling(UNDEPLOYING, ReactiveCharges.class.getPackage(), SCHEMA, withOtherChannels(Map.of(
                CHANNEL + "connector", "sqlstreams",
                CHANNEL + "stream", UNDEPLOYING_STREAM,
                CHANNEL + "group", ReactiveCharges.GROUP,
                CHANNEL + "payload-type", Payment.class.getName(),
                CHANNEL + "claim-poll-rate", "100ms")));
    }

    @Deployment(name = "reactive-keyed-a", managed = false, testable = false)
    public static WebArchive keyedA() {
        return keyed(KEYED.get(0));
    }

    @Deployment(name = "reactive-keyed-b", managed = false, testable = false)
    public static WebArchive keyedB() {
        return keyed(KEYED.get(1));
    }

    private static WebArchive keyed(String name) {
        return ApplicationArchive.journalling(name, ReactiveCharges.class.getPackage(), KEYED_SCHEMA, withOtherChannels(Map.ofEntries(
                Map.entry(Journal.deploymentProperty(), name),
                Map.entry(CHANNEL + "connector", "sqlstreams"),
                Map.entry(CHANNEL + "stream", Payment.STREAM),
                Map.entry(CHANNEL + "group", ReactiveCharges.GROUP),
                Map.entry(CHANNEL + "payload-type", Payment.class.getName()),
                Map.entry(CHANNEL + "concurrency-override", "ordered"),
                Map.entry(CHANNEL + "message.retry.max-retries", "5"),
                Map.entry(CHANNEL + "exception-initial-backoff", "200ms"),
                Map.entry(CHANNEL + "batch-limit", "4"),
                Map.entry(CHANNEL + "message-concurrency", "4"),
                Map.entry(CHANNEL + "claim-poll-rate", "50ms"))));
    }

    /** Four problems: a group name that is not one, a class the application lacks, a bad value, a mistyped key. */
    @Deployment(name = BAD, managed = false, testable = false)
    public static WebArchive badConfiguration() {
        return ApplicationArchive.journalling(BAD, ReactiveCharges.class.getPackage(), SCHEMA, withOtherChannels(Map.of(
                CHANNEL + "connector", "sqlstreams",
                CHANNEL + "stream", Payment.STREAM,
                CHANNEL + "group", "charges;drop",
                CHANNEL + "payload-type", "com.example.Missing",
                CHANNEL + "message.timeout", "10x",
                CHANNEL + "batch-limt", "8")));
    }

    /** The receipts and refunds channels every deployment of the package needs, beside its payments channel. */
    private static Map<String, String> withOtherChannels(Map<String, String> payments) {
        Map<String, String> all = new HashMap<>(payments);
        all.putAll(Map.of(
                RECEIPTS + "connector", "sqlstreams",
                RECEIPTS + "stream", ReactiveCharges.RECEIPTS_STREAM,
                REFUNDS + "connector", "sqlstreams",
                REFUNDS + "stream", ReactiveRefunds.STREAM,
                REFUNDS + "group", ReactiveRefunds.GROUP,
                REFUNDS + "payload-type", Payment.class.getName(),
                REFUNDS + "claim-poll-rate", "100ms"));
        return all;
    }

    /**
     * The log where the library's diagnostic lines go while {@code deployment} runs: the server's own log, or the
     * deployment's where the server runs one process per deployment.
     */
    protected abstract Path serverLog(String deployment);

    @BeforeEach
    void registerTheStream() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
    }

    /**
     * Everything the application shows while it runs, in one deployment of it (each deployment is a Micro process
     * of its own on Payara): messages already waiting at the deploy run once it has started, the channel's group is
     * in the health checks, an {@code @Incoming} method receives every message once, a nack retries after the
     * backoff and a terminal nack dead-letters, a payload method is acked on return and nacked with what it throws;
     * then the undeploy stops the channel's session.
     */
    @Test
    void theApplicationDeliversAcksAndNacksWhileDeployedAndItsUndeployStopsTheChannel() throws Exception {
        StreamHandle<Payment> receiptsStream = client(SCHEMA).stream(ReactiveCharges.RECEIPTS_STREAM, Payment.class);
        receiptsStream.register();
        List<Long> waitingCharges = produce(stream, WAITING_CHARGE, WAITING_MESSAGES);
        List<Long> waitingReceipts = produce(receiptsStream, WAITING_RECEIPT, WAITING_MESSAGES);
        whileDeployed(() -> {
            runWaitingMessagesOnce(receiptsStream, waitingCharges, waitingReceipts);
            assertTheGroupIsRunning();
            receiveEveryMessageOnce();
            retryOnceThenDeadLetter();
            acknowledgeAPayloadMethod();
        });
        assertThat(stream.consumer(ReactiveCharges.GROUP).workers()).as("the undeploy stopped the channel's session")
                .isNotEmpty().allSatisfy(worker -> assertThat(worker.liveInstances()).as(worker.name()).isZero());
    }

    private void assertTheGroupIsRunning() throws Exception {
        String key = Payment.STREAM + "/" + ReactiveCharges.GROUP;
        await().atMost(WAIT).untilAsserted(() -> {
            for (String kind : List.of("ready", "live")) {
                HealthEndpoint.Answer answer = health(kind);
                assertThat(answer.status()).as("/health/%s answered %s", kind, answer.body()).isEqualTo(200);
            }
        });
        assertThat(health("ready").data("sqlstreams-ready").getString(key)).isEqualTo("running");
        assertThat(health("live").data("sqlstreams-sessions").getString(key)).isEqualTo("running");
    }

    private void receiveEveryMessageOnce() throws Exception {
        List<Long> produced = produce(stream, "reactive", MESSAGES);
        long last = produced.get(produced.size() - 1);

        await().atMost(WAIT).untilAsserted(() -> assertThat(stream.consumer(ReactiveCharges.GROUP).inspect()
                .committed()).isGreaterThanOrEqualTo(last));

        assertThat(JournalRows.read(SCHEMA)).filteredOn(run -> run.order().startsWith("reactive-"))
                .extracting(JournalRows.Entry::messageId)
                .as("every message handled once").containsExactlyInAnyOrderElementsOf(produced);
        ConsumerHandle<Payment> handle = stream.consumer(ReactiveCharges.GROUP);
        assertThat(handle.deadLetters().count(DeadLetterFilter.all().idRange(produced.get(0), last)))
                .as("none of them dead").isZero();
        ConsumerInspection group = handle.inspect();
        assertThat(group.declaredConfig().message().timeout()).as("declared from the channel's keys")
                .isEqualTo(Duration.ofSeconds(15));

        await("the emitted receipts, journalled by the " + ReceiptJournal.GROUP + " observer").atMost(WAIT)
                .until(() -> receipts().size() == MESSAGES);
        assertThat(receipts()).as("one receipt per order, keyed by it").allSatisfy(receipt ->
                assertThat(receipt.order()).isEqualTo("receipt-" + receipt.key()))
                .extracting(JournalRows.Entry::key).doesNotHaveDuplicates();
    }

    /**
     * Messages already waiting when the application deploys, on the channel's stream and on the stream of the
     * receipts' {@code @ConsumerGroup} observer, run only once the application has started: the journal both write to
     * takes its data source from an {@code @Resource}, which Payara binds only as the web module starts. Each is
     * handled once, at its first attempt, and the channel keeps running.
     */
    private void runWaitingMessagesOnce(StreamHandle<Payment> receiptsStream, List<Long> charges, List<Long> receipts)
            throws Exception {
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(stream.consumer(ReactiveCharges.GROUP).inspect().committed())
                    .isGreaterThanOrEqualTo(charges.get(WAITING_MESSAGES - 1));
            assertThat(receiptsStream.consumer(ReceiptJournal.GROUP).inspect().committed())
                    .isGreaterThanOrEqualTo(receipts.get(WAITING_MESSAGES - 1));
        });
        assertRanOnceAtTheFirstAttempt(WAITING_CHARGE, charges);
        assertRanOnceAtTheFirstAttempt(WAITING_RECEIPT, receipts);
    }

    private static void assertRanOnceAtTheFirstAttempt(String prefix, List<Long> ids) throws SQLException {
        assertThat(JournalRows.read(SCHEMA)).filteredOn(run -> run.order().startsWith(prefix + "-"))
                .as("the runs of the %s messages", prefix)
                .allSatisfy(run -> assertThat(run.attempt()).as("attempt of %s", run.order()).isOne())
                .allSatisfy(run -> assertThat(run.succeeded()).as("%s succeeded", run.order()).isTrue())
                .extracting(JournalRows.Entry::messageId).containsExactlyInAnyOrderElementsOf(ids);
    }

    /**
     * The undeploy comes while the outgoing channel writes a receipt, which a lock the test holds on the receipts
     * stream keeps waiting for a few seconds: the stop lets that produce finish, so every receipt the method sent is
     * written, or nacked to it by the closed channel (SQL0156) or refused by the emitter, and none is dropped without
     * an answer.
     */
    @Test
    void aReceiptInHandAtTheUndeployIsWrittenNotLost() throws Exception {
        Thread releasing;
        deployer.deploy(UNDEPLOYING);
        try (SqlStreams client = client(SCHEMA)) {
            try (Producer<Payment> producer = client.stream(UNDEPLOYING_STREAM, Payment.class).producer().register()) {
                producer.produceBatch(IntStream.range(0, IN_HAND_MESSAGES)
                        .mapToObj(n -> ProduceItem.of(new Payment(UNDEPLOYED + "-" + n))).toList());
            }
            await().atMost(WAIT).until(() -> charged(UNDEPLOYED).size() >= 20);
            releasing = holdReceiptsStreamUntilTheChannelStops();
        } finally {
            deployer.undeploy(UNDEPLOYING);
        }
        releasing.join();
        Set<String> charged = charged(UNDEPLOYED);
        Set<String> written = receiptKeys();
        Map<String, String> nacked = JournalRows.read(SCHEMA).stream().map(JournalRows.Entry::order)
                .filter(order -> order.startsWith(ReactiveCharges.NACKED_RECEIPT + UNDEPLOYED))
                .map(order -> order.substring(ReactiveCharges.NACKED_RECEIPT.length()).split(" ", 2))
                .collect(Collectors.toMap(parts -> parts[0], parts -> parts[1], (first, second) -> first));
        System.out.printf("%s: %d charged before the undeploy, %d receipts written, %d nacked%n",
                UNDEPLOYED, charged.size(), written.size(), nacked.size());
        assertThat(charged).as("the undeploy came before the end").hasSizeLessThan(IN_HAND_MESSAGES);
        Map<String, String> lost = new TreeMap<>();
        for (String order : charged) {
            String why = nacked.get(order);
            if (!written.contains(order) && (why == null || !why.contains("SQL0156") && !why.contains("SRMSG")
                    && !why.startsWith("refused by the emitter"))) {
                lost.put(order, why == null ? "neither written nor nacked" : "nacked: " + why);
            }
        }
        assertThat(lost).as("receipts of charged orders lost at the undeploy (%d charged, %d written, %d nacked)",
                charged.size(), written.size(), nacked.size()).isEmpty();
    }

    /**
     * Locks the receipts stream's log against writes until a produce waits for it, and returns the thread that
     * releases the lock once the undeploy has stopped the incoming channel's session: the connector's stop is then
     * draining the outgoing channels, with that produce still in hand.
     */
    private static Thread holdReceiptsStreamUntilTheChannelStops() throws Exception {
        String log = SCHEMA + ".message_log_" + receiptsStreamId();
        Connection connection = server().database().getConnection();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LOCK TABLE " + log + " IN SHARE MODE");
        }
        await("a receipt's produce waits for the lock").atMost(WAIT).until(() -> waitingFor(log) > 0);
        Thread releasing = new Thread(() -> {
            try (connection; SqlStreams client = client(SCHEMA)) {
                ConsumerHandle<Payment> incoming = client.stream(UNDEPLOYING_STREAM, Payment.class)
                        .consumer(ReactiveCharges.GROUP);
                await("the undeploy stops the incoming channel's session").atMost(WAIT)
                        .until(() -> !incoming.workers().isEmpty()
                                && incoming.workers().stream().allMatch(worker -> worker.liveInstances() == 0));
                connection.rollback();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot release the lock on " + log, e);
            }
        }, "release-" + log);
        releasing.start();
        return releasing;
    }

    private static long waitingFor(String table) throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '"
                     + table + "'::regclass")) {
            count.next();
            return count.getLong(1);
        }
    }

    private void retryOnceThenDeadLetter() throws Exception {
        long terminal;
        try (Producer<Payment> producer = stream.producer().register()) {
            producer.produce(new Payment("fail-once-1"));
            terminal = producer.produce(new Payment("terminal-1")).id();
        }
        ConsumerHandle<Payment> group = stream.consumer(ReactiveCharges.GROUP);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(runsOf("fail-once-1")).hasSize(2);
            assertThat(group.inspect().dead()).isEqualTo(1);
        });
        List<JournalRows.Entry> retried = runsOf("fail-once-1");
        assertThat(retried).extracting(JournalRows.Entry::succeeded).containsExactly(false, true);
        assertThat(Duration.between(retried.get(0).ranAt(), retried.get(1).ranAt()))
                .as("the retry waited for the configured backoff").isGreaterThanOrEqualTo(BACKOFF);
        assertThat(runsOf("terminal-1")).as("a terminal nack is not retried").hasSize(1);
        assertThat(group.deadLetters().list(DeadLetterFilter.all(), PageRequest.first(10)).letters())
                .singleElement().satisfies(dead -> {
                    assertThat(dead.messageId()).isEqualTo(terminal);
                    assertThat(dead.lastError()).contains("card declined for terminal-1");
                });
    }

    private void acknowledgeAPayloadMethod() throws Exception {
        StreamHandle<Payment> refunds = client(SCHEMA).stream(ReactiveRefunds.STREAM, Payment.class);
        List<Long> ids = new ArrayList<>();
        try (Producer<Payment> producer = refunds.producer().register()) {
            for (String order : List.of("refund-1", "declined-2", "refund-3")) {
                ids.add(producer.produce(new Payment(order)).id());
            }
        }
        ConsumerHandle<Payment> group = refunds.consumer(ReactiveRefunds.GROUP);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(group.inspect().committed()).isGreaterThanOrEqualTo(ids.get(2));
            assertThat(group.inspect().dead()).isEqualTo(1);
        });
        assertThat(group.deadLetters().list(DeadLetterFilter.all(), PageRequest.first(10)).letters())
                .singleElement().satisfies(dead -> {
                    assertThat(dead.messageId()).isEqualTo(ids.get(1));
                    assertThat(dead.lastError()).contains("refund declined for declined-2");
                });
    }

    @Test
    void anOrderedKeySucceedsInIdOrderAcrossTwoDeployments() throws Exception {
        StreamHandle<Payment> keyed = paymentsWithJournal(KEYED_SCHEMA);
        KEYED.forEach(deployer::deploy);
        try {
            KeyedRuns.produce(keyed, n -> n % 5 == 0 ? "fail-once-" : "");
            await().atMost(WAIT).until(() -> charges().stream().filter(JournalRows.Entry::succeeded).count()
                    == KeyedRuns.MESSAGES);
            List<JournalRows.Entry> runs = charges();
            assertThat(runs.stream().filter(JournalRows.Entry::succeeded).map(JournalRows.Entry::messageId)
                    .distinct().count()).as("every message succeeded exactly once").isEqualTo(KeyedRuns.MESSAGES);
            assertThat(runs).filteredOn(run -> !run.succeeded()).as("each fail-once message was nacked once")
                    .hasSize(KeyedRuns.MESSAGES / 5);
            assertThat(runs.stream().map(JournalRows.Entry::deployment).distinct())
                    .as("both deployments ran messages").containsExactlyInAnyOrderElementsOf(KEYED);
            Map<String, List<JournalRows.Entry>> byKey = KeyedRuns.byKey(runs);
            KeyedRuns.assertSuccessesInIdOrder(byKey);
            KeyedRuns.assertNoOverlaps(byKey);
        } finally {
            KEYED.forEach(deployer::undeploy);
        }
    }

    @Test
    void badChannelConfigurationFailsTheDeploymentWithEveryProblem() {
        assertThatThrownBy(() -> deployer.deploy(BAD)).as("the deployment fails").isInstanceOf(Exception.class);
        try {
            await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readAllLines(serverLog(BAD),
                    StandardCharsets.UTF_8)).anySatisfy(line -> assertThat(line).contains("SQL0108")
                    .contains(CHANNEL + "group = charges;drop")
                    .contains(CHANNEL + "payload-type = com.example.Missing: no such class in the application")
                    .contains(CHANNEL + "message.timeout = 10x")
                    .contains(CHANNEL + "batch-limt = 8: unknown key of a sqlstreams channel"
                            + " (did you mean batch-limit?)")));
        } finally {
            deployer.undeploy(BAD);
        }
    }

    /** Runs {@code check} with the application deployed, undeploying it whatever happens. */
    private void whileDeployed(Check check) throws Exception {
        deployer.deploy(APPLICATION);
        try {
            check.run();
        } finally {
            deployer.undeploy(APPLICATION);
        }
    }

    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }

    /** The keyed deployments' runs of payments, without the receipts their observer journals beside them. */
    private static List<JournalRows.Entry> charges() throws SQLException {
        return JournalRows.read(KEYED_SCHEMA).stream().filter(run -> !run.order().startsWith("receipt-")).toList();
    }

    private static List<JournalRows.Entry> receipts() throws SQLException {
        return JournalRows.read(SCHEMA).stream().filter(run -> run.order().startsWith("receipt-reactive-")).toList();
    }

    /** The orders of {@code prefix} the method charged. */
    private static Set<String> charged(String prefix) throws SQLException {
        return JournalRows.read(SCHEMA).stream().filter(run -> run.succeeded() && run.order().startsWith(prefix + "-"))
                .map(JournalRows.Entry::order).collect(Collectors.toSet());
    }

    /** The message keys on the receipts stream: the orders whose receipt was written. */
    private static Set<String> receiptKeys() throws SQLException {
        try (Connection connection = server().database().getConnection();
             Statement statement = connection.createStatement();
             ResultSet keys = statement.executeQuery("SELECT message_key FROM " + SCHEMA + ".message_log_"
                     + receiptsStreamId() + " WHERE message_key IS NOT NULL")) {
            Set<String> found = new HashSet<>();
            while (keys.next()) {
                found.add(keys.getString(1));
            }
            return found;
        }
    }

    private static long receiptsStreamId() {
        try (SqlStreams client = client(SCHEMA)) {
            return client.stream(ReactiveCharges.RECEIPTS_STREAM, Payment.class).get().orElseThrow().id();
        }
    }

    private static List<JournalRows.Entry> runsOf(String order) throws SQLException {
        return JournalRows.read(SCHEMA).stream().filter(entry -> entry.order().equals(order)).toList();
    }
}
