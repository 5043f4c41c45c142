package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.Sql;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;

/** {@code consumer destroy} on groups of one stream holding two messages, each test with groups of its own. */
@PostgresTest
class ConsumerDestroyCommandTest {
    private static final String STREAM = "payments.requested";

    private static Map<String, String> environment;
    private static StreamHandle<Numbered> stream;
    private static long streamId;
    private static Sql sql;

    @BeforeAll
    static void registerStream(TestDatabase database) throws SQLException {
        EngineClient client = EngineFixtures.client(database, new RecordingLogger());
        stream = client.stream(STREAM, Numbered.class);
        streamId = stream.register().id();
        ConsumeFixtures.produceNumbered(stream, 2);
        sql = new Sql(database);
        environment = CliRun.environmentFor(database);
    }

    private static ConsumerHandle<Numbered> registered(String group) {
        ConsumerHandle<Numbered> handle = stream.consumer(group);
        handle.register();
        return handle;
    }

    /** A dead letter of message 1 for {@code group}, as a session that gave up on it leaves one. */
    private static void deadLetter(ConsumerHandle<Numbered> group) throws SQLException {
        sql.update("INSERT INTO {s}.exception_queue_" + streamId + " (consumer_group_id, message_id, status,"
                + " concurrency, attempts, last_error) VALUES (?, 1, 'dead', 'parallel', 1, 'declined')",
                group.get().orElseThrow().id());
    }

    @Test
    void destroyAsksForTheGroupsName() {
        ConsumerHandle<Numbered> group = registered("typed");

        CliRun wrong = CliRun.typing(STREAM + "\n", environment, "consumer", "destroy", STREAM, "typed");
        CliRun nothing = CliRun.typing("", environment, "consumer", "destroy", STREAM, "typed");
        assertThat(group.get()).isPresent();
        CliRun typed = CliRun.typing("typed\n", environment, "consumer", "destroy", STREAM, "typed");

        assertThat(List.of(wrong, nothing)).extracting(CliRun::exitCode).containsOnly(ExitCodes.DECLINED);
        assertThat(wrong.out() + nothing.out()).isEmpty();
        assertThat(wrong.err()).isEqualTo("destroy consumer group \"typed\" on stream \"" + STREAM + "\"? Its cursor,"
                + " retries and dead letters go; the stream's messages stay. Type its name to confirm: "
                + "consumer group \"typed\" on stream \"" + STREAM + "\" was not destroyed: the name typed did not"
                + " match\n");
        assertThat(nothing.err()).isEqualTo(wrong.err());
        assertThat(typed.exitCode()).as(typed.err()).isZero();
        assertThat(typed.outLines()).containsExactly("destroyed consumer group \"typed\" on stream \"" + STREAM + "\"");
        assertThat(group.get()).isEmpty();
        assertThat(stream.get()).as("the stream stays").isPresent();
    }

    @Test
    void aGroupWithDeliveryRowsNeedsForceAndFailsBeforeTheQuestion() throws SQLException {
        ConsumerHandle<Numbered> group = registered("haunted");
        deadLetter(group);

        CliRun asked = CliRun.typing("haunted\n", environment, "consumer", "destroy", STREAM, "haunted");
        CliRun yes = CliRun.run(environment, "consumer", "destroy", STREAM, "haunted", "-y");
        assertThat(group.get()).isPresent();
        CliRun forced = CliRun.run(environment, "consumer", "destroy", STREAM, "haunted", "--force", "--yes",
                "-o", "json");

        assertThat(List.of(asked, yes)).extracting(CliRun::exitCode).containsOnly(ExitCodes.FAILED);
        assertThat(asked.errLines()).singleElement().asString().startsWith("SQL0016 consumer group \"haunted\"");
        assertThat(yes.err()).isEqualTo(asked.err());
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.json().asJsonObject()).isEqualTo(Json.createObjectBuilder().add("stream", STREAM)
                .add("consumer", "haunted").add("destroyed", true).build());
        assertThat(group.get()).isEmpty();
        assertThat(sql.count("SELECT count(*) FROM {s}.exception_queue_" + streamId)).isZero();
    }

    @Test
    void aLiveGroupNeedsForceAndFailsBeforeTheQuestion() throws InterruptedException {
        ConsumerHandle<Numbered> group = stream.consumer("live");
        try (ConsumerSession session = group.register().start(message -> { },
                ConsumeFixtures.fastSession().build())) {
            assertThat(session.awaitStarted(Duration.ofSeconds(20))).isTrue();

            CliRun asked = CliRun.typing("live\n", environment, "consumer", "destroy", STREAM, "live");

            assertThat(asked.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(asked.errLines()).singleElement().asString().startsWith("SQL0015 consumer group \"live\"");
            assertThat(group.get()).isPresent();

            CliRun forced = CliRun.typing("live\n", environment, "consumer", "destroy", STREAM, "live", "--force");

            assertThat(forced.exitCode()).as(forced.err()).isZero();
            assertThat(group.get()).isEmpty();
        }
    }

    @Test
    void destroyWithoutYesIsRefusedWithoutATerminalAndWithJson() {
        ConsumerHandle<Numbered> group = registered("kept");

        DestroyRefusals.assertNeedsYes(environment, "kept", "consumer", "destroy", STREAM, "kept");

        assertThat(group.get()).isPresent();
    }

    @Test
    void destroyOfAnUnknownGroupOrStreamIsRefusedBeforeAnyQuestion() {
        CliRun group = CliRun.typing("missing\n", environment, "consumer", "destroy", STREAM, "missing");
        CliRun streamMissing = CliRun.run(environment, "consumer", "destroy", "orders.missing", "any", "--yes");
        CliRun badName = CliRun.typing("x\n", environment, "consumer", "destroy", STREAM, "bad name");

        assertThat(List.of(group, streamMissing)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(group.errLines()).singleElement().asString().startsWith("SQL0014 ");
        assertThat(streamMissing.errLines()).singleElement().asString().startsWith("SQL0005 ");
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.errLines()).singleElement().asString().startsWith("SQL0109 ");
    }
}
