package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.Schedule;
import io.sqlstreams.SystemConfig;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;

/**
 * A schedule declared in the application's MicroProfile Config properties is registered when the application
 * starts; the system manager its session runs produces it at the next whole minute, and the message reaches the
 * application's ordinary {@code @ConsumerGroup} observer with its due time as {@code scheduledAt}.
 */
public abstract class ScheduleScenario extends TckScenario {
    private static final String DEPLOYMENT = "scheduling";
    private static final String SCHEMA = "tck_schedules";
    private static final String SCHEDULE = "tck-minutely";
    private static final String PREFIX = "sqlstreams.schedules.\"" + SCHEDULE + "\".";
    /** Up to a minute to the next due time, then the producer's poll and the delivery. */
    private static final Duration DUE_WAIT = Duration.ofSeconds(150);

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    public static WebArchive scheduling() {
        return ApplicationArchive.journalling(DEPLOYMENT, ChargeCards.class.getPackage(), SCHEMA, Map.of(
                PREFIX + "stream", Payment.STREAM,
                PREFIX + "expression", "* * * * *",
                PREFIX + "payload-type", Payment.class.getName(),
                PREFIX + "payload", "{\"order\": \"scheduled\"}"));
    }

    @Test
    void aScheduleDeclaredInThePropertiesReachesItsObserverWithItsDueTime() throws Exception {
        client(SCHEMA).system().register(new SystemConfig(Duration.ofSeconds(1)));
        paymentsWithJournal(SCHEMA);

        deployer.deploy(DEPLOYMENT);
        try {
            Schedule registered = client(SCHEMA).scheduler(SCHEDULE).get();
            assertThat(registered.stream()).isEqualTo(Payment.STREAM);
            assertThat(registered.expression()).isEqualTo("* * * * *");

            await().atMost(DUE_WAIT).until(() -> !scheduledRuns().isEmpty());
            Instant due = scheduledRuns().get(0);
            assertThat(due).as("a whole minute").isEqualTo(due.truncatedTo(ChronoUnit.MINUTES));
            assertThat(due).isAfterOrEqualTo(registered.createdAt().truncatedTo(ChronoUnit.MINUTES));
            assertThat(client(SCHEMA).scheduler(SCHEDULE).get().lastScheduledAt()).isAfterOrEqualTo(due);
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }
    }

    /** The due times of the schedule's messages the observer journalled, in the order they ran. */
    private static List<Instant> scheduledRuns() throws SQLException {
        List<Instant> due = new ArrayList<>();
        try (Connection connection = server().database().getConnection();
             PreparedStatement query = connection.prepareStatement("SELECT scheduled_at FROM " + SCHEMA + "."
                     + Journal.TABLE + " WHERE message_key = ? AND payment_order = 'scheduled' ORDER BY ran_at")) {
            query.setString(1, SCHEDULE);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    due.add(rows.getTimestamp(1).toInstant());
                }
            }
        }
        return due;
    }
}
