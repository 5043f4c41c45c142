package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.orders.Order;

/**
 * The injected {@code @StreamName} producer joins the caller's JTA transaction: a JPA write and the produced message
 * commit together, and both roll back when the transaction does.
 */
public abstract class TransactionalProduceScenario extends TckScenario {
    private static final String APPLICATION = "transactional-produce";
    private static final String SCHEMA = "tck_transactional_produce";

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return OrdersEndpoint.application(APPLICATION, Map.of("sqlstreams.schema", SCHEMA));
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
        return OrdersEndpoint.place(APPLICATION, name, fail);
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
