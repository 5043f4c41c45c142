package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.orders.Order;
import io.sqlstreams.tck.deployment.orders.OrderDesk;

/**
 * The injected {@code @StreamName} producer joins the caller's JTA transaction: a JPA write and the produced message
 * commit together, and both roll back when the transaction does.
 */
public abstract class TransactionalProduceScenario extends TckScenario {
    private static final String APPLICATION = "transactional-produce";
    private static final String SCHEMA = "tck_transactional_produce";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final String PERSISTENCE = """
            <persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
              <persistence-unit name="orders" transaction-type="JTA">
                <jta-data-source>jdbc/sqlstreams</jta-data-source>
                <class>io.sqlstreams.tck.deployment.orders.Order</class>
                <exclude-unlisted-classes>true</exclude-unlisted-classes>
              </persistence-unit>
            </persistence>
            """;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ApplicationArchive.of(APPLICATION, OrderDesk.class.getPackage(), Map.of("sqlstreams.schema", SCHEMA))
                .addClass(Payment.class)
                .addAsResource(new StringAsset(PERSISTENCE), "META-INF/persistence.xml");
    }

    @BeforeEach
    void deploy() throws SQLException {
        execute(Order.createTable());
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    @Test
    void theOrderAndItsMessageCommitTogether() throws Exception {
        assertThat(place("committed-order", false).statusCode()).isEqualTo(204);

        assertThat(orders("committed-order")).isEqualTo(1);
        assertThat(messages("committed-order")).isEqualTo(1);
    }

    @Test
    void theOrderAndItsMessageRollBackTogether() throws Exception {
        HttpResponse<String> answer = place("rolled-back-order", true);
        assertThat(answer.statusCode()).isEqualTo(500);
        assertThat(answer.body()).as("it failed only after storing and producing")
                .isEqualTo("order rolled-back-order fails after it was stored and produced");

        assertThat(orders("rolled-back-order")).isZero();
        assertThat(messages("rolled-back-order")).isZero();
    }

    private static HttpResponse<String> place(String name, boolean fail) throws Exception {
        URI uri = server().http("/" + APPLICATION + "/api/orders?name="
                + URLEncoder.encode(name, StandardCharsets.UTF_8) + "&fail=" + fail);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(WAIT).POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static long orders(String name) throws SQLException {
        return count("SELECT count(*) FROM " + Order.TABLE + " WHERE name = ?", name);
    }

    private static long messages(String name) throws SQLException {
        long streamId = client(SCHEMA).stream(Payment.STREAM, Payment.class).get().orElseThrow().id();
        return count("SELECT count(*) FROM " + SCHEMA + ".message_log_" + streamId + " WHERE payload->>'order' = ?",
                name);
    }

    private static long count(String sql, String name) throws SQLException {
        try (Connection connection = server().database().getConnection();
             PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, name);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
