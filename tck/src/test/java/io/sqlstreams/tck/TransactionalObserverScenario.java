package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerInspection;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.charges.Charge;
import io.sqlstreams.tck.deployment.charges.TransactionalCharges;

/**
 * A {@code @Transactional} {@code @ConsumerGroup} observer that stores a JPA entity per message: each message runs in
 * a JTA transaction the library begins, so the entity and the message's outcome commit together, and an attempt that
 * throws after writing rolls its entity back before the retry writes it again.
 */
public abstract class TransactionalObserverScenario extends TckScenario {
    private static final String APPLICATION = "transactional-observer";
    private static final String MIXED = "mixed-data-sources";
    private static final String ELSEWHERE = "java:app/jdbc/charges-elsewhere";
    private static final String SCHEMA = "tck_transactional_observer";
    private static final String MIXED_SCHEMA = "tck_mixed_data_sources";
    private static final String GROUP_KEY = "sqlstreams.groups.\"" + TransactionalCharges.GROUP + "\".";
    private static final String PERSISTENCE = """
            <persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
              <persistence-unit name="charges" transaction-type="JTA">
                <jta-data-source>%s</jta-data-source>
                <class>io.sqlstreams.tck.deployment.charges.Charge</class>
                <exclude-unlisted-classes>true</exclude-unlisted-classes>
              </persistence-unit>
            </persistence>
            """;
    /** A second data source the application defines itself, on the same PostgreSQL: another pool, other sessions. */
    private static final String WEB_XML = """
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
              <data-source>
                <name>%s</name>
                <class-name>org.postgresql.ds.PGSimpleDataSource</class-name>
                <server-name>%s</server-name>
                <port-number>%d</port-number>
                <database-name>%s</database-name>
                <user>%s</user>
                <password>%s</password>
              </data-source>
            </web-app>
            """;

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return charges(APPLICATION, SCHEMA, "jdbc/sqlstreams");
    }

    /** The same observer with its persistence unit on a data source of its own. */
    @Deployment(name = MIXED, managed = false, testable = false)
    public static WebArchive mixedDataSources() {
        ServerCoordinates server = ServerCoordinates.current();
        return charges(MIXED, MIXED_SCHEMA, ELSEWHERE).setWebXML(new StringAsset(WEB_XML.formatted(ELSEWHERE, server.pgHost(),
                server.pgPort(), server.pgDatabase(), server.pgUser(), server.pgPassword())));
    }

    private static WebArchive charges(String name, String schema, String jtaDataSource) {
        return ApplicationArchive.of(name, TransactionalCharges.class.getPackage(), Map.of(
                        "sqlstreams.schema", schema,
                        GROUP_KEY + "message.retry.max-retries", "3",
                        GROUP_KEY + "exception-initial-backoff", "200ms",
                        GROUP_KEY + "claim-poll-rate", "100ms"))
                .addClass(Payment.class)
                .addAsResource(new StringAsset(PERSISTENCE.formatted(jtaDataSource)), "META-INF/persistence.xml");
    }

    /** The server's log, where the failure of {@code deployment} is reported. */
    protected abstract Path serverLog(String deployment);

    @BeforeEach
    void createTheTableAndTheStream() throws SQLException {
        execute("DROP TABLE IF EXISTS " + Charge.TABLE);
        execute(Charge.createTable());
        stream = client(SCHEMA).stream(Payment.STREAM, Payment.class);
        stream.register();
    }

    @Test
    void eachChargeCommitsOnceWithItsMessageAndAThrownAttemptRollsItsChargeBack() throws Exception {
        deployer.deploy(APPLICATION);
        try {
            chargesCommitWithTheirMessages();
        } finally {
            deployer.undeploy(APPLICATION);
        }
    }

    @Test
    void aPersistenceUnitOnAnotherDataSourceFailsTheDeploymentWithItsCode() {
        try {
            assertThatThrownBy(() -> deployer.deploy(MIXED)).as("the deployment fails").isInstanceOf(Exception.class);
            await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readAllLines(serverLog(MIXED),
                    StandardCharsets.UTF_8)).anySatisfy(line -> assertThat(line).contains("SQL0159 a transactional"
                    + " @ConsumerGroup observer cannot commit its writes with its messages' outcomes in one phase")));
        } finally {
            deployer.undeploy(MIXED);
        }
        assertThat(client(MIXED_SCHEMA).stream(Payment.STREAM, Payment.class).get())
                .as("nothing was registered").isEmpty();
    }

    private void chargesCommitWithTheirMessages() throws Exception {
        List<Long> ids = new ArrayList<>();
        List<Long> failing = new ArrayList<>();
        try (Producer<Payment> producer = stream.producer().register()) {
            for (int i = 0; i < 30; i++) {
                String order = (i % 10 == 3 ? TransactionalCharges.FAIL_ONCE + "-" : "order-") + i;
                long id = producer.produce(new Payment(order)).id();
                ids.add(id);
                if (order.startsWith(TransactionalCharges.FAIL_ONCE)) {
                    failing.add(id);
                }
            }
        }
        long last = ids.get(ids.size() - 1);

        await().atMost(WAIT).untilAsserted(() -> {
            ConsumerInspection group = stream.consumer(TransactionalCharges.GROUP).inspect();
            assertThat(group.committed()).as("committed cursor of %s", group).isGreaterThanOrEqualTo(last);
            assertThat(group.exceptions()).as("exception rows of %s", group).isEmpty();
            assertThat(group.openLeases()).as("open leases of %s", group).isZero();
        });

        Map<Long, Integer> attempts = chargesByMessage();
        assertThat(attempts.keySet()).as("one charge per message (a second would break the primary key)")
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(attempts).allSatisfy((id, attempt) -> assertThat(attempt)
                .as("the attempt whose charge committed for message %d", id)
                .isEqualTo(failing.contains(id) ? 2 : 1));
    }

    private static Map<Long, Integer> chargesByMessage() throws SQLException {
        Map<Long, Integer> attempts = new HashMap<>();
        try (Connection connection = server().database().getConnection();
             PreparedStatement query = connection.prepareStatement("SELECT messageid, attempt FROM " + Charge.TABLE);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                attempts.put(rows.getLong(1), rows.getInt(2));
            }
        }
        return attempts;
    }
}
