package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.sqlstreams.Code;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** {@code explain}: the whole diagnostic catalogue, offline (no database is named or needed). */
class ExplainCommandTest {
    private static final Map<String, String> NO_DATABASE = Map.of();

    @ParameterizedTest
    @EnumSource(Code.class)
    void explainsEveryCodeAsText(Code code) {
        CliRun run = CliRun.run(NO_DATABASE, "explain", code.id());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        Map<String, String> fields = TextTables.fields(run.outLines());
        assertThat(fields).containsEntry("code", code.id())
                .containsEntry("title", code.title())
                .containsEntry("kind", code.kind().name().toLowerCase())
                .containsEntry("meaning", code.meaning())
                .containsEntry("action", code.action());
    }

    @ParameterizedTest
    @EnumSource(Code.class)
    void explainsEveryCodeAsJson(Code code) {
        CliRun run = CliRun.run(NO_DATABASE, "explain", code.id(), "--output", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject entry = run.json().asJsonObject();
        assertThat(entry.getString("code")).isEqualTo(code.id());
        assertThat(entry.getString("meaning")).isEqualTo(code.meaning());
        assertThat(entry.getString("action")).isEqualTo(code.action());
        assertThat(entry.getString("kind")).isEqualTo(code.kind().name().toLowerCase());
        if (code.kind() == Code.Kind.ERROR) {
            assertThat(entry.getString("recovery")).isEqualTo(code.isTransient() ? "transient" : "permanent");
            assertThat(entry.getString("level")).isEqualTo("error");
        } else {
            assertThat(entry.get("recovery")).isEqualTo(JsonValue.NULL);
        }
        if (code.kind() == Code.Kind.METRIC) {
            assertThat(entry.get("level")).isEqualTo(JsonValue.NULL);
            assertThat(entry.getString("metric_kind")).isIn("gauge", "counter");
            assertThat(entry).containsKeys("unit", "scope", "attributes");
        }
    }

    @ParameterizedTest
    @CsvSource({"ready_count, SQL0045", "claimed_count, SQL0042", "lease_lost_count, SQL0051"})
    void findsASessionCounterByItsStopLineKey(String key, Code expected) {
        CliRun run = CliRun.run(NO_DATABASE, "explain", key, "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject entry = run.json().asJsonObject();
        assertThat(entry.getString("code")).isEqualTo(expected.id());
        assertThat(entry.getString("metric_kind")).isEqualTo("counter");
        assertThat(entry.getString("scope")).isEqualTo("consumer_session");
        assertThat(entry.getString("attributes")).isEqualTo("stream, group, version, session");
    }

    @Test
    void showsAGroupMetricsUnitAndAttributeKeys() {
        CliRun run = CliRun.run(NO_DATABASE, "explain", "sqlstreams.consumer.exceptions.oldest_unresolved_age");

        assertThat(run.exitCode()).isZero();
        assertThat(TextTables.fields(run.outLines())).containsEntry("code", "SQL0089")
                .containsEntry("metric_kind", "gauge").containsEntry("unit", "s")
                .containsEntry("scope", "consumer_group").containsEntry("attributes", "stream, group");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SQL0110", "sql0110", "0110", "110", " DatabaseUnavailable "})
    void acceptsEverySpellingOfACodeAndItsTitle(String spelling) {
        CliRun run = CliRun.run(NO_DATABASE, "explain", spelling, "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject entry = run.json().asJsonObject();
        assertThat(entry.getString("code")).isEqualTo("SQL0110");
        assertThat(entry.getString("level")).isEqualTo("error");
        assertThat(entry.getString("recovery")).isEqualTo("transient");
    }

    @Test
    void explainsADebugEventFoundByItsTitle() {
        CliRun run = CliRun.run(NO_DATABASE, "explain", "TransientFailureRetried", "-o", "json");

        assertThat(run.exitCode()).isZero();
        JsonObject entry = run.json().asJsonObject();
        assertThat(entry.getString("code")).isEqualTo("SQL0129");
        assertThat(entry.getString("kind")).isEqualTo("event");
        assertThat(entry.getString("level")).isEqualTo("debug");
        assertThat(entry.getString("meaning")).isEqualTo(Code.SQL0129.meaning());
    }

    @Test
    void findsAnAlertByName() {
        CliRun run = CliRun.run(NO_DATABASE, "explain", "partition_count", "-o", "json");

        assertThat(run.json().asJsonObject().getString("code")).isEqualTo("SQL0094");
        assertThat(run.json().asJsonObject().getString("kind")).isEqualTo("alert");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SQL0165", "SQL0000", "nonsense"})
    void anUnknownCodeIsAbsent(String unknown) {
        CliRun run = CliRun.run(NO_DATABASE, "explain", unknown);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.ABSENT);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly(
                "no diagnostic code or name \"" + unknown + "\": codes run from SQL0001 to SQL0164");
    }

    @Test
    void withoutACodeListsTheWholeCatalogue() {
        CliRun text = CliRun.run(NO_DATABASE, "explain");
        CliRun json = CliRun.run(NO_DATABASE, "explain", "--output=json");

        assertThat(text.exitCode()).isZero();
        List<Map<String, String>> rows = TextTables.rows(text.outLines());
        assertThat(rows).hasSize(Code.values().length);
        assertThat(rows.get(58)).containsEntry("CODE", "SQL0059").containsEntry("KIND", "event")
                .containsEntry("LEVEL", "warning").containsEntry("RECOVERY", "-");
        assertThat(rows.get(109)).containsEntry("CODE", "SQL0110").containsEntry("RECOVERY", "transient");
        JsonArray all = json.json().asJsonArray();
        assertThat(all.stream().map(entry -> entry.asJsonObject().getString("code")))
                .containsExactlyElementsOf(Arrays.stream(Code.values()).map(Code::id).toList());
    }
}
