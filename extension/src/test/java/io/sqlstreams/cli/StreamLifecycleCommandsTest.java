package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Stream;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineFixtures;
import io.sqlstreams.engine.client.EngineClient;
import io.sqlstreams.engine.consume.ConsumeFixtures;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.RecordingLogger;
import io.sqlstreams.testing.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/** {@code stream rename} and {@code stream destroy}, each test on streams of its own. */
@PostgresTest
class StreamLifecycleCommandsTest {
    private static Map<String, String> environment;
    private static EngineClient client;

    @BeforeAll
    static void connect(TestDatabase database) throws SQLException {
        client = EngineFixtures.client(database, new RecordingLogger());
        environment = CliRun.environmentFor(database);
    }

    private static StreamHandle<Numbered> registered(String name) {
        StreamHandle<Numbered> stream = client.stream(name, Numbered.class);
        stream.register();
        return stream;
    }

    private static boolean exists(String name) {
        return client.stream(name, Numbered.class).get().isPresent();
    }

    // ---- stream rename ----

    @Test
    void renameKeepsTheIdAndPrintsTheRenamedRow() {
        Stream before = registered("rename.text.old").get().orElseThrow();
        registered("rename.json.old");

        CliRun text = CliRun.run(environment, "stream", "rename", "rename.text.old", "rename.text.new");
        CliRun json = CliRun.run(environment, "stream", "rename", "rename.json.old", "rename.json.new", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(TextTables.fields(text.outLines())).containsEntry("id", Long.toString(before.id()))
                .containsEntry("name", "rename.text.new");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonObject renamed = json.json().asJsonObject();
        assertThat(renamed.getString("name")).isEqualTo("rename.json.new");
        assertThat(renamed.getJsonNumber("id").longValue())
                .isEqualTo(client.stream("rename.json.new", Numbered.class).get().orElseThrow().id());
        assertThat(List.of(exists("rename.text.old"), exists("rename.text.new"), exists("rename.json.old")))
                .containsExactly(false, true, false);
    }

    @Test
    void renameToItsOwnNameIsAUsageError() {
        registered("rename.same");

        CliRun run = CliRun.run(environment, "stream", "rename", "rename.same", "rename.same");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("usage: the new name is the stream's name: nothing to rename");
    }

    @Test
    void renameOfAnUnknownStreamOrToATakenNameIsRefused() {
        registered("rename.taken.a");
        registered("rename.taken.b");

        CliRun unknown = CliRun.run(environment, "stream", "rename", "rename.missing", "rename.anything");
        CliRun taken = CliRun.run(environment, "stream", "rename", "rename.taken.a", "rename.taken.b");
        CliRun badName = CliRun.run(environment, "stream", "rename", "rename.taken.a", "Bad Name");

        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(unknown.err()).startsWith("SQL0005 ");
        assertThat(taken.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(taken.err()).startsWith("SQL0007 ");
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.err()).startsWith("SQL0109 ");
        assertThat(unknown.out() + taken.out() + badName.out()).isEmpty();
        assertThat(List.of(exists("rename.taken.a"), exists("rename.taken.b"))).containsOnly(true);
    }

    // ---- stream destroy ----

    @Test
    void destroyAsksForTheStreamsNameNamingItsGroups() {
        StreamHandle<Numbered> stream = registered("destroy.typed");
        stream.consumer("audit").register();
        stream.consumer("billing").register();
        long id = stream.get().orElseThrow().id();

        CliRun wrong = CliRun.typing("destroy\n", environment, "stream", "destroy", "destroy.typed");
        CliRun nothing = CliRun.typing("", environment, "stream", "destroy", "destroy.typed");
        assertThat(exists("destroy.typed")).isTrue();
        CliRun typed = CliRun.typing("destroy.typed\n", environment, "stream", "destroy", "destroy.typed");

        assertThat(List.of(wrong, nothing)).extracting(CliRun::exitCode).containsOnly(ExitCodes.DECLINED);
        assertThat(wrong.out() + nothing.out()).isEmpty();
        assertThat(wrong.err()).isEqualTo("destroy stream \"destroy.typed\" (id " + id + ") and its consumer groups"
                + " audit, billing? Its messages go with it. Type its name to confirm: "
                + "stream \"destroy.typed\" was not destroyed: the name typed did not match\n");
        assertThat(nothing.err()).isEqualTo(wrong.err());
        assertThat(typed.exitCode()).as(typed.err()).isZero();
        assertThat(typed.outLines()).containsExactly("destroyed stream \"destroy.typed\"");
        assertThat(exists("destroy.typed")).isFalse();
    }

    @Test
    void destroyOfAStreamHoldingMessagesNeedsForceAndFailsBeforeTheQuestion() {
        StreamHandle<Numbered> stream = registered("destroy.full");
        ConsumeFixtures.produceNumbered(stream, 2);

        CliRun asked = CliRun.typing("destroy.full\n", environment, "stream", "destroy", "destroy.full");
        CliRun yes = CliRun.run(environment, "stream", "destroy", "destroy.full", "--yes");
        assertThat(exists("destroy.full")).isTrue();
        CliRun forced = CliRun.typing("destroy.full\n", environment, "stream", "destroy", "destroy.full", "--force");

        assertThat(List.of(asked, yes)).extracting(CliRun::exitCode).containsOnly(ExitCodes.FAILED);
        assertThat(asked.errLines()).singleElement().asString().startsWith("SQL0006 stream \"destroy.full\" still"
                + " holds messages");
        assertThat(yes.err()).isEqualTo(asked.err());
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.err()).contains("Type its name to confirm: ");
        assertThat(exists("destroy.full")).isFalse();
    }

    @Test
    void destroyYesPrintsTheDestroyedStream() {
        registered("destroy.yes.text");
        registered("destroy.yes.json");

        CliRun text = CliRun.run(environment, "stream", "destroy", "destroy.yes.text", "--yes");
        CliRun json = CliRun.run(environment, "stream", "destroy", "-y", "destroy.yes.json", "-o", "json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.outLines()).containsExactly("destroyed stream \"destroy.yes.text\"");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().asJsonObject()).isEqualTo(Json.createObjectBuilder().add("stream", "destroy.yes.json")
                .add("destroyed", true).build());
        assertThat(List.of(exists("destroy.yes.text"), exists("destroy.yes.json"))).containsOnly(false);
    }

    @Test
    void destroyWithoutYesIsRefusedWithoutATerminalAndWithJson() {
        registered("destroy.kept");

        DestroyRefusals.assertNeedsYes(environment, "destroy.kept", "stream", "destroy", "destroy.kept");

        assertThat(exists("destroy.kept")).isTrue();
    }

    @Test
    void destroyOfAnUnknownStreamIsSql0005BeforeAnyQuestion() {
        CliRun asked = CliRun.typing("destroy.missing\n", environment, "stream", "destroy", "destroy.missing");
        CliRun yes = CliRun.run(environment, "stream", "destroy", "destroy.missing", "--yes");
        CliRun badName = CliRun.typing("x\n", environment, "stream", "destroy", "Bad Name");

        assertThat(List.of(asked, yes)).extracting(CliRun::exitCode).containsOnly(ExitCodes.ABSENT);
        assertThat(asked.errLines()).singleElement().asString().startsWith("SQL0005 ");
        assertThat(yes.err()).isEqualTo(asked.err());
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.errLines()).singleElement().asString().startsWith("SQL0109 ");
    }
}
