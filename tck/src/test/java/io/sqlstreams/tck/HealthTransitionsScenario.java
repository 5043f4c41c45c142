package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.DestroyOptions;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;

/**
 * Health on the server follows what happens to the group: all three endpoints UP once the session runs; a database
 * outage takes readiness DOWN while liveness stays UP (a restart would not help), and readiness comes back UP with
 * the database; a group destroyed under the running session takes liveness DOWN, since only a redeploy can help.
 */
public abstract class HealthTransitionsScenario extends TckScenario {
    private static final String APPLICATION = "health-transitions";
    private static final String SCHEMA = "tck_health_transitions";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".";
    private static final String GROUP_DATA_KEY = Payment.STREAM + "/" + ChargeCards.GROUP;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.of(APPLICATION, ChargeCards.class.getPackage(), Map.of(
                "sqlstreams.schema", SCHEMA,
                GROUP_KEY + "claim-poll-rate", "100ms",
                GROUP_KEY + "instance-ttl", "10s",
                GROUP_KEY + "config-refresh-interval", "1s"));
    }

    @Test
    void healthFollowsADatabaseOutageAndAGroupDestroyedUnderTheSession() throws Exception {
        paymentsWithJournal(SCHEMA);

        deployer.deploy(APPLICATION);
        try {
            await().atMost(WAIT).untilAsserted(() -> {
                for (String kind : List.of("started", "ready", "live")) {
                    assertThat(health(kind).status()).as("/health/%s", kind).isEqualTo(200);
                }
            });

            try (DatabaseOutage outage = DatabaseOutage.begin(server())) {
                await().atMost(WAIT).untilAsserted(() -> assertThat(health("ready").status())
                        .as("readiness without a database").isEqualTo(503));
                HealthEndpoint.Answer live = health("live");
                assertThat(live.status()).as("liveness without a database: %s", live.body()).isEqualTo(200);
            }
            await().atMost(WAIT).untilAsserted(() -> {
                HealthEndpoint.Answer ready = health("ready");
                assertThat(ready.status()).as("readiness with the database back: %s", ready.body()).isEqualTo(200);
                assertThat(ready.data("sqlstreams-ready").getString(GROUP_DATA_KEY)).startsWith("running");
            });

            SqlStreams destroying = SqlStreams.create(server().database(),
                    ClientConfig.builder().schema(SCHEMA).allowDestroy(true).build());
            destroying.stream(Payment.STREAM, Payment.class).consumer(ChargeCards.GROUP)
                    .destroy(DestroyOptions.forced());
            await().atMost(WAIT).untilAsserted(() -> {
                HealthEndpoint.Answer live = health("live");
                assertThat(live.status()).as("liveness once the group is gone: %s", live.body()).isEqualTo(503);
                assertThat(live.data("sqlstreams-sessions").getString(GROUP_DATA_KEY)).startsWith("failed: ")
                        .contains("SQL0014");
            });
            assertThat(health("ready").status()).as("readiness once the group is gone").isEqualTo(503);
        } finally {
            deployer.undeploy(APPLICATION);
        }
    }
}
