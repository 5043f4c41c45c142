package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Concurrency;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SchemaVersion;

/** Schedules declared in MicroProfile Config: bound into registrations, and every problem listed with its code. */
class ScheduleSettingsTest {
    private static final String NIGHTLY = "sqlstreams.schedules.\"nightly-report\".";

    @SchemaVersion(1)
    public record Report(String kind, int days) {
    }

    public record Unversioned(String kind) {
    }

    @Test
    void aCompleteDeclarationBecomesARegistrationWithItsDecodedPayload() {
        ResolvedSettings resolved = resolve(Map.of(
                NIGHTLY + "stream", "reports",
                NIGHTLY + "expression", "TZ=Europe/Berlin 30 4 * * 1",
                NIGHTLY + "payload-type", Report.class.getName(),
                NIGHTLY + "payload", "{\"kind\":\"weekly\",\"days\":7}",
                NIGHTLY + "timeout", "5m",
                NIGHTLY + "concurrency", "exclusive"));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.schedules()).containsExactly(new ScheduleSettings("nightly-report", "reports",
                "TZ=Europe/Berlin 30 4 * * 1", new Report("weekly", 7),
                new SchedulerConfig(Duration.ofMinutes(5), Concurrency.EXCLUSIVE, null)));
    }

    @Test
    void timeoutAndConcurrencyMayBeLeftToTheirDefaults() {
        ResolvedSettings resolved = resolve(Map.of(NIGHTLY + "stream", "reports", NIGHTLY + "expression", "@daily",
                NIGHTLY + "payload-type", Report.class.getName(), NIGHTLY + "payload", "{\"kind\":\"d\",\"days\":1}"));

        assertThat(resolved.schedules()).singleElement().satisfies(schedule -> {
            assertThat(schedule.config().resolvedTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(schedule.config().resolvedConcurrency()).isEqualTo(Concurrency.PARALLEL);
        });
    }

    @Test
    void everyProblemOfEveryScheduleIsListedWithItsKeyAndCode() {
        Map<String, String> properties = new HashMap<>();
        properties.put(NIGHTLY + "stream", "reports");
        properties.put(NIGHTLY + "expression", "@every 30s");
        properties.put(NIGHTLY + "payload-type", Report.class.getName());
        properties.put(NIGHTLY + "payload", "{\"kind\": [1]}");
        properties.put(NIGHTLY + "concurrency", "ordered");
        properties.put(NIGHTLY + "timout", "5m");
        String missing = "sqlstreams.schedules.\"no-class\".";
        properties.put(missing + "stream", "bad stream!");
        properties.put(missing + "expression", "61 * * * *");
        properties.put(missing + "payload-type", "com.example.Nowhere");
        properties.put(missing + "payload", "{}");
        String unversioned = "sqlstreams.schedules.\"unversioned\".";
        properties.put(unversioned + "payload-type", Unversioned.class.getName());
        properties.put(unversioned + "payload", "{}");
        properties.put("sqlstreams.schedules.\"bad name!\".stream", "reports");

        ResolvedSettings resolved = resolve(properties);

        assertThat(resolved.schedules()).isEmpty();
        String cronForms = "must be a 5-field cron spec, a descriptor (@hourly, @daily, @weekly, @monthly, @yearly)"
                + " or \"@every <duration>\", optionally after \"TZ=Area/City \"";
        String nameRule = "must be 1 to 200 characters of letters, digits, '.', '_' or '-', starting with a letter,"
                + " digit or '_'";
        assertThat(resolved.problems()).extracting(SettingsProblem::describe).containsExactlyInAnyOrder(
                "SQL0109 sqlstreams.schedules.\"bad name!\".stream: invalid schedule name \"bad name!\": " + nameRule,
                "SQL0108 " + NIGHTLY + "expression: '@every 30s' has times only 30s apart; schedules need at least"
                        + " 1 minute between times",
                "SQL0108 " + NIGHTLY + "concurrency: 'ordered' must be parallel or exclusive: a schedule's runs have"
                        + " no order to keep",
                "SQL0108 " + NIGHTLY + "payload: is not the JSON of a " + Report.class.getName()
                        + ": Unexpected state: END_ARRAY",
                "SQL0108 " + NIGHTLY + "timout: unknown schedule property (did you mean timeout?); a schedule's"
                        + " properties are [concurrency, expression, payload, payload-type, stream, timeout]",
                "SQL0109 " + missing + "stream: invalid stream name \"bad stream!\": " + nameRule,
                "SQL0108 " + missing + "expression: '61 * * * *' " + cronForms + ": Value 61 not in range [0, 59]",
                "SQL0108 " + missing + "payload-type: no class com.example.Nowhere in the application",
                "SQL0108 " + unversioned + "stream: required for schedule \"unversioned\"",
                "SQL0108 " + unversioned + "expression: required for schedule \"unversioned\"",
                "SQL0134 " + unversioned + "payload-type: payload " + Unversioned.class.getName()
                        + " has no @SchemaVersion; annotate the class with @SchemaVersion(n), n at least 1");
    }

    private static ResolvedSettings resolve(Map<String, String> properties) {
        return SettingsResolver.resolve(Configs.application(properties), List.of());
    }
}
