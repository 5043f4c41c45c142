package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sqlstreams.Code;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Short and stream-qualified group keys, and the ambiguity of a group name deployed on two streams. */
class GroupKeyFormsTest {
    private static final GroupAddress CHARGE_CARDS = new GroupAddress("payments.requested", "charge-cards");
    private static final GroupAddress REFUND_CARDS = new GroupAddress("refunds.requested", "charge-cards");
    private static final GroupAddress AUDIT = new GroupAddress("payments.requested", "audit");

    @Test
    void aGroupNameOnOneStreamTakesTheShortOrTheQualifiedForm() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of(
                "sqlstreams.groups.\"charge-cards\".batch-limit", "10",
                "sqlstreams.groups.\"payments.requested/audit\".batch-limit", "20")), List.of(CHARGE_CARDS, AUDIT));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.groups().get(CHARGE_CARDS).options().batchLimit()).isEqualTo(10);
        assertThat(resolved.groups().get(AUDIT).options().batchLimit()).isEqualTo(20);
    }

    @Test
    void aGroupNameOnTwoStreamsIsAddressedByItsQualifiedForm() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of(
                "sqlstreams.groups.\"payments.requested/charge-cards\".batch-limit", "10",
                "sqlstreams.groups.\"refunds.requested/charge-cards\".batch-limit", "20")),
                List.of(CHARGE_CARDS, REFUND_CARDS, AUDIT));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.groups().get(CHARGE_CARDS).options().batchLimit()).isEqualTo(10);
        assertThat(resolved.groups().get(REFUND_CARDS).options().batchLimit()).isEqualTo(20);
    }

    @Test
    void theShortFormOfAGroupNameOnTwoStreamsIsAmbiguousAndHoldsBothGroupsBack() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of(
                "sqlstreams.groups.\"charge-cards\".message.timeout", "10s")),
                List.of(CHARGE_CARDS, REFUND_CARDS, AUDIT));

        assertThat(resolved.problems()).containsExactly(new SettingsProblem(Code.SQL0108,
                "sqlstreams.groups.\"charge-cards\".message.timeout",
                "ambiguous: group \"charge-cards\" is deployed on several streams; use"
                        + " sqlstreams.groups.\"payments.requested/charge-cards\".message.timeout or"
                        + " sqlstreams.groups.\"refunds.requested/charge-cards\".message.timeout"));
        assertThat(resolved.groups()).containsOnlyKeys(AUDIT);
    }

    @Test
    void anAmbiguousShortKeySetAsAnEnvironmentVariableIsFoundToo() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.applicationAndEnvironment(Map.of(),
                        Map.of("SQLSTREAMS_GROUPS__CHARGE_CARDS__BATCH_LIMIT", "10")),
                List.of(CHARGE_CARDS, REFUND_CARDS));

        assertThat(resolved.problems()).extracting(SettingsProblem::property)
                .containsExactly("sqlstreams.groups.\"charge-cards\".batch-limit");
        assertThat(resolved.groups()).isEmpty();
    }

    @Test
    void theSameGroupListedTwiceIsOneGroup() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of(
                "sqlstreams.groups.\"charge-cards\".batch-limit", "10")), List.of(CHARGE_CARDS, CHARGE_CARDS));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.groups()).containsOnlyKeys(CHARGE_CARDS);
    }

    @Test
    void groupsComeBackInDeploymentOrder() {
        List<GroupAddress> deployed = List.of(AUDIT, REFUND_CARDS, CHARGE_CARDS);

        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of()), deployed);

        assertThat(resolved.groups().keySet()).containsExactlyElementsOf(deployed);
    }
}
