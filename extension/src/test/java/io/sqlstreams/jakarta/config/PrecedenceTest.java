package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which value wins when several keys or sources set one property. */
class PrecedenceTest {
    private static final GroupAddress CHARGE_CARDS = new GroupAddress("payments.requested", "charge-cards");
    private static final GroupAddress AUDIT = new GroupAddress("payments.requested", "audit");
    private static final String CHARGE_CARDS_CONCURRENCY = "sqlstreams.groups.\"charge-cards\".message-concurrency";

    @Test
    void aDefaultsKeyAppliesToEveryGroupWithoutItsOwnKey() {
        ResolvedSettings resolved = resolve(Configs.application(Map.of(
                "sqlstreams.defaults.message.timeout", "20s",
                "sqlstreams.groups.\"charge-cards\".message.timeout", "45s")));

        assertThat(timeout(resolved, CHARGE_CARDS)).isEqualTo(Duration.ofSeconds(45));
        assertThat(timeout(resolved, AUDIT)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aSessionOptionFromTheServerOverridesTheApplicationsFile() {
        ResolvedSettings resolved = resolve(Configs.applicationAndServer(
                Map.of(CHARGE_CARDS_CONCURRENCY, "2"),
                Map.of(CHARGE_CARDS_CONCURRENCY, "8")));

        assertThat(resolved.groups().get(CHARGE_CARDS).options().messageConcurrency()).isEqualTo(8);
    }

    @Test
    void aGroupsOwnKeyWinsOverADefaultsKeyEvenFromAHigherOrdinalSource() {
        ResolvedSettings resolved = resolve(Configs.applicationAndServer(
                Map.of(CHARGE_CARDS_CONCURRENCY, "2"),
                Map.of("sqlstreams.defaults.message-concurrency", "8")));

        assertThat(resolved.groups().get(CHARGE_CARDS).options().messageConcurrency()).isEqualTo(2);
        assertThat(resolved.groups().get(AUDIT).options().messageConcurrency()).isEqualTo(8);
    }

    @Test
    void theStreamQualifiedKeyWinsOverTheShortKey() {
        ResolvedSettings resolved = resolve(Configs.application(Map.of(
                "sqlstreams.groups.\"charge-cards\".batch-limit", "10",
                "sqlstreams.groups.\"payments.requested/charge-cards\".batch-limit", "20")));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.groups().get(CHARGE_CARDS).options().batchLimit()).isEqualTo(20);
    }

    @Test
    void anEnvironmentVariableInTheSpecsMappedSpellingIsReadAndNotReportedAsUnknown() {
        ResolvedSettings resolved = resolve(Configs.applicationAndEnvironment(
                Map.of(CHARGE_CARDS_CONCURRENCY, "2"),
                Map.of("SQLSTREAMS_GROUPS__CHARGE_CARDS__MESSAGE_CONCURRENCY", "6",
                        "SQLSTREAMS_DEFAULTS_BATCH_LIMIT", "12")));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.groups().get(CHARGE_CARDS).options().messageConcurrency()).isEqualTo(6);
        assertThat(resolved.groups().get(AUDIT).options().batchLimit()).isEqualTo(12);
    }

    @Test
    void aBindingPatternTakenFromTheDefaultsIsTheWholeSetNotMergedWithTheGroups() {
        ResolvedSettings resolved = resolve(Configs.application(Map.of(
                "sqlstreams.defaults.bindings", "eu.*",
                "sqlstreams.groups.\"audit\".bindings", "us.*,ca.*")));

        assertThat(resolved.groups().get(CHARGE_CARDS).declaration().bindings()).containsExactly("eu.*");
        assertThat(resolved.groups().get(AUDIT).declaration().bindings()).containsExactly("us.*", "ca.*");
    }

    private static ResolvedSettings resolve(org.eclipse.microprofile.config.Config config) {
        return SettingsResolver.resolve(config, List.of(CHARGE_CARDS, AUDIT));
    }

    private static Duration timeout(ResolvedSettings resolved, GroupAddress group) {
        return resolved.groups().get(group).declaration().message().timeout();
    }
}
