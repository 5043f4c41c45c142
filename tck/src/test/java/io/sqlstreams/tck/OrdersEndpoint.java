package io.sqlstreams.tck;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.orders.OrderDesk;

/**
 * The orders application ({@link io.sqlstreams.tck.deployment.orders}): a JAX-RS endpoint that stores an order with
 * JPA and produces its payment in one JTA transaction, and the test client's call of it.
 */
public final class OrdersEndpoint {
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

    private OrdersEndpoint() {
    }

    /** The application as a WAR called {@code name}, with {@code config} as its MicroProfile Config. */
    public static WebArchive application(String name, Map<String, String> config) {
        return ApplicationArchive.of(name, OrderDesk.class.getPackage(), config)
                .addClass(Payment.class)
                .addAsResource(new StringAsset(PERSISTENCE), "META-INF/persistence.xml");
    }

    /**
     * {@code POST /<application>/api/orders}: 204 once the order and its payment committed, 500 with the failure's
     * message when {@code fail} made the transaction roll back after both were written.
     */
    public static HttpResponse<String> place(String application, String order, boolean fail)
            throws IOException, InterruptedException {
        URI uri = ServerCoordinates.current().http("/" + application + "/api/orders?name="
                + URLEncoder.encode(order, StandardCharsets.UTF_8) + "&fail=" + fail);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(ServerScenario.WAIT)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
