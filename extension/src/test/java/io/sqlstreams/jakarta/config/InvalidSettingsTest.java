package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad value or key is one problem naming the key, and all of them are reported in one pass. */
class InvalidSettingsTest {
    private static final GroupAddress CHARGE_CARDS = new GroupAddress("payments.requested", "charge-cards");
    private static final GroupAddress AUDIT = new GroupAddress("payments.requested", "audit");
    private static final String GROUP = "sqlstreams.groups.\"charge-cards\".";

    /** Values that parse but break the API's rules: the problem names the group as well. */
    private static final String BROKEN_RULE = "| for group \"charge-cards\" on stream \"payments.requested\": ";

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "message.timeout           | 10x        | '10x' must be a duration such as 1h30m, 1.5s, 500ms or PT10S",
            "claim-poll-rate           | 10 s       | '10 s' must be a duration such as 1h30m, 1.5s, 500ms or PT10S",
            "batch-limit               | 4.5        | '4.5' must be a whole number up to 2147483647, such as 8",
            "queue-size                | 99999999999| '99999999999' must be a whole number up to 2147483647, such as 8",
            "disable-graceful-shutdown | yes        | 'yes' must be true or false",
            "enabled                   | 1          | '1' must be true or false",
            "concurrency-override      | serial     | 'serial' must be one of [parallel, exclusive, ordered]",
            "start                     | end        | 'end' must be one of [beginning, head]",
            "bindings                  | orders.*,,x| 'orders.*,,x' must not contain an empty pattern (pattern 2)",
            "bindings                  | ' , '      | ' , ' must not contain an empty pattern (pattern 1)",
            "message.timeout              | -5s " + BROKEN_RULE + "-5s must not be negative",
            "message.retry.max-retries    | -1  " + BROKEN_RULE
                    + "-1 must be at least 1 (zero attempts would report success without running)",
            "message-min.retry.base-delay | -1s " + BROKEN_RULE + "-1s must not be negative",
            "message-max.retry.exponent   | -2  " + BROKEN_RULE + "-2 must not be negative",
            "max-range-reclaims           | -3  " + BROKEN_RULE + "-3 must be at least 1",
            "exception-initial-backoff    | -1m " + BROKEN_RULE + "-1m0s must not be negative",
            "batch-limit                  | -4  " + BROKEN_RULE + "-4 must be at least 1",
            "shutdown-timeout             | -1s " + BROKEN_RULE + "-1s must not be negative"})
    void aBadValueIsOneProblemNamingTheKeyAndHoldsItsGroupBack(String property, String value, String message) {
        ResolvedSettings resolved = resolve(Map.of(GROUP + property, value));

        assertThat(resolved.problems()).containsExactly(new SettingsProblem(Code.SQL0108, GROUP + property, message));
        assertThat(resolved.groups()).containsOnlyKeys(AUDIT);
    }

    @ParameterizedTest(name = "sqlstreams.console.path = {0}")
    @CsvSource({"ops", "/Ops", "/ops/../x", "'/ops streams'"})
    void aConsolePathOutsideItsAlphabetFailsTheDeploymentNamingTheKey(String path) {
        Config config = Configs.application(Map.of("sqlstreams.console.path", path));

        assertThat(SettingsResolver.resolve(config, List.of()).problems()).containsExactly(new SettingsProblem(
                Code.SQL0108, "sqlstreams.console.path",
                "'" + path + "' must start with / and hold only a-z, 0-9, /, _ and -"));
        assertThatThrownBy(() -> SettingsResolver.global(config)).isInstanceOf(SqlStreamsException.class)
                .hasMessageStartingWith("SQL0108 sqlstreams.console.path: '" + path + "'");
    }

    @Test
    void aRuleBetweenTwoPropertiesNamesTheOneTheApiBlames() {
        ResolvedSettings resolved = resolve(Map.of(GROUP + "batch-limit", "8", GROUP + "queue-size", "2"));

        assertThat(resolved.problems()).extracting(SettingsProblem::property).containsExactly(GROUP + "queue-size");
        assertThat(resolved.problems().get(0).message()).contains("must be at least batchLimit (8)");
    }

    @Test
    void aBadDefaultsValueIsOneProblemThatHoldsEveryGroupBack() {
        ResolvedSettings resolved = resolve(Map.of("sqlstreams.defaults.record-margin", "2 seconds"));

        assertThat(resolved.problems()).extracting(SettingsProblem::property)
                .containsExactly("sqlstreams.defaults.record-margin");
        assertThat(resolved.groups()).isEmpty();
    }

    @Test
    void aDefaultsValueTheApiRejectsIsReportedForEachGroupUnderTheDefaultsKey() {
        ResolvedSettings resolved = resolve(Map.of("sqlstreams.defaults.message-concurrency", "-2"));

        assertThat(resolved.problems()).extracting(SettingsProblem::describe).containsExactly(
                "SQL0108 sqlstreams.defaults.message-concurrency: for group \"charge-cards\" on stream"
                        + " \"payments.requested\": -2 must be at least 1",
                "SQL0108 sqlstreams.defaults.message-concurrency: for group \"audit\" on stream"
                        + " \"payments.requested\": -2 must be at least 1");
    }

    @Test
    void everyProblemIsReportedInOnePass() {
        ResolvedSettings resolved = resolve(Map.of(
                GROUP + "message.timeout", "10x",
                GROUP + "batch-limit", "-1",
                GROUP + "enabled", "maybe",
                "sqlstreams.groups.\"audit\".start", "tail",
                "sqlstreams.groups.\"audit\".message.timout", "10s",
                "sqlstreams.groups.\"chrage-cards\".batch-limit", "2",
                "sqlstreams.schema", "Payments"));

        assertThat(resolved.problems()).extracting(SettingsProblem::describe).containsExactlyInAnyOrder(
                "SQL0108 " + GROUP + "message.timeout: '10x' must be a duration such as 1h30m, 1.5s, 500ms or PT10S",
                "SQL0108 " + GROUP + "batch-limit: for group \"charge-cards\" on stream \"payments.requested\":"
                        + " -1 must be at least 1",
                "SQL0108 " + GROUP + "enabled: 'maybe' must be true or false",
                "SQL0108 sqlstreams.groups.\"audit\".start: 'tail' must be one of [beginning, head]",
                "SQL0108 sqlstreams.groups.\"audit\".message.timout: unknown property message.timout for group"
                        + " \"audit\" (did you mean message.timeout?)",
                "SQL0108 sqlstreams.groups.\"chrage-cards\".batch-limit: no consumer group \"chrage-cards\" is"
                        + " deployed (did you mean charge-cards?)",
                "SQL0109 sqlstreams.schema: invalid schema name \"Payments\": must start with a lower-case letter or"
                        + " underscore, continue with lower-case letters, digits or underscores, and be at most 63"
                        + " characters");
        assertThat(resolved.groups()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "sqlstreams.groups.\"ledger\".batch-limit | no consumer group \"ledger\" is deployed; deployed:"
                    + " [payments.requested/charge-cards, payments.requested/audit] | charge-cards audit",
            "sqlstreams.groups.charge-cards.batch-limit | the group segment must be in double quotes, as in"
                    + " sqlstreams.groups.\"<group>\".<property>; write sqlstreams.groups.\"charge-cards\".batch-limit"
                    + " | audit",
            "sqlstreams.defaults.batch-size | unknown property batch-size |",
            "sqlstreams.data-source | unknown property; sqlstreams keys are sqlstreams.datasource, sqlstreams.schema,"
                    + " sqlstreams.manager.enabled, sqlstreams.wakeup.enabled, sqlstreams.console.enabled,"
                    + " sqlstreams.console.path, sqlstreams.telemetry.enabled, sqlstreams.defaults.<property>,"
                    + " sqlstreams.groups.\"<group>\".<property> and sqlstreams.schedules.\"<schedule>\".<property>"
                    + " | charge-cards audit"})
    void aKeyNothingReadsIsAProblemHoldingBackTheGroupsItMeant(String key, String message, String unaffected) {
        ResolvedSettings resolved = resolve(Map.of(key, "2"));

        assertThat(resolved.problems()).containsExactly(new SettingsProblem(Code.SQL0108, key, message));
        assertThat(resolved.groups().keySet()).extracting(GroupAddress::group)
                .containsExactlyInAnyOrder(unaffected == null ? new String[0] : unaffected.split(" "));
    }

    @Test
    void anExpressionThatDoesNotExpandIsAProblemNotASilentDefault() {
        ResolvedSettings resolved = resolve(Map.of(GROUP + "batch-limit", "${no.such.property}",
                "sqlstreams.defaults.queue-size", "${batch.size}", "batch.size", "16"));

        assertThat(resolved.problems()).containsExactly(new SettingsProblem(Code.SQL0108, GROUP + "batch-limit",
                "'${no.such.property}' expands to no value (check the properties its expressions name)"));
        assertThat(resolved.groups().get(AUDIT).options().queueSize()).isEqualTo(16);
    }

    @Test
    void keysOutsideTheSqlstreamsNamespaceAreNotOurs() {
        ResolvedSettings resolved = resolve(Map.of("mp.health.disable-default-procedures", "true",
                "sqlstreamsx.batch-limit", "2"));

        assertThat(resolved.problems()).isEmpty();
    }

    @Test
    void sqlSignificantCharactersAreLiteralPatternsOrInvalidValuesNeverAnythingElse() {
        ResolvedSettings resolved = resolve(Map.of(
                "sqlstreams.groups.\"audit\".bindings", "o'brien.*;DROP TABLE x;--,\"quoted\"",
                GROUP + "message.timeout", "10s'; DROP TABLE x; --",
                GROUP + "executor", "java:app/exec\"; --"));

        assertThat(resolved.groups().get(AUDIT).declaration().bindings())
                .containsExactly("o'brien.*;DROP TABLE x;--", "\"quoted\"");
        assertThat(resolved.problems()).extracting(SettingsProblem::describe).containsExactly(
                "SQL0108 " + GROUP + "message.timeout: '10s'; DROP TABLE x; --' must be a duration such as 1h30m,"
                        + " 1.5s, 500ms or PT10S");
    }

    private static ResolvedSettings resolve(Map<String, String> properties) {
        return SettingsResolver.resolve(Configs.application(properties), List.of(CHARGE_CARDS, AUDIT));
    }
}
