package io.sqlstreams.tck;

import static io.sqlstreams.tck.ConsoleApplication.GROUP_PATH;
import static io.sqlstreams.tck.ConsoleApplication.OPERATOR;
import static io.sqlstreams.tck.ConsoleApplication.PASSWORD;
import static io.sqlstreams.tck.ConsoleApplication.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;

import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ProduceOptions;
import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.console.DeclineOnceCards;

/**
 * The operator console of a deployed application, enabled in its properties and secured by the server's roles: it
 * serves nobody without a role, lets a viewer read but not change, lets an operator change only with the session's
 * CSRF token, redrives dead letters (after a dry run that counts them), and answers bad input with a coded JSON
 * error. The application and its users are {@link ConsoleApplication}'s.
 */
public abstract class ConsoleScenario extends TckScenario {
    private static final String APPLICATION = "console";
    private static final String SCHEMA = "tck_console";

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ConsoleApplication.archive(APPLICATION, SCHEMA);
    }

    @BeforeEach
    void deploy() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    @Test
    void aViewerReadsAndAnOperatorRedrivesWithTheSessionsToken() throws Exception {
        List<Long> ids = produce(stream, "console", 3);
        String selection = "from_id=" + ids.get(0) + "&to_id=" + ids.get(2);
        ConsoleEndpoint viewer = ConsoleEndpoint.as(server(), APPLICATION, VIEWER, PASSWORD);
        ConsoleEndpoint operator = ConsoleEndpoint.as(server(), APPLICATION, OPERATOR, PASSWORD);

        assertThat(ConsoleEndpoint.anonymous(server(), APPLICATION).get("overview").status()).isIn(401, 403);
        assertThat(ConsoleEndpoint.anonymous(server(), APPLICATION).page("").statusCode()).isIn(401, 403);
        HttpResponse<String> page = viewer.page("");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("console.js", "console.css");
        assertThat(viewer.page("console.js").headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/javascript"));
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValue("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        HttpResponse<String> api = viewer.page("api/schedules");
        assertThat(api.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(api.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");

        long keyed = produceKeyed("console-key");
        await().atMost(WAIT).ignoreExceptions().until(() -> viewer.get(GROUP_PATH + "/dead/count?" + selection).json()
                .getJsonNumber("count").longValue() == 3);
        JsonObject overview = viewer.get("overview").json();
        assertThat(overview.getJsonObject("manager").getString("state")).isNotBlank();
        assertThat(overview.getJsonObject("manager").getJsonNumber("workers_running")).isNotNull();
        JsonObject group = overview.getJsonArray("streams").getValuesAs(JsonObject.class)
                .stream().filter(s -> s.getString("stream").equals(Payment.STREAM)).findFirst().orElseThrow()
                .getJsonArray("groups").getJsonObject(0);
        assertThat(group.getString("group")).isEqualTo(DeclineOnceCards.GROUP);
        assertThat(group.getJsonNumber("dead").longValue()).isGreaterThanOrEqualTo(3);
        assertThat(group.getInt("live_instances")).as("the deployed application consumes the group").isPositive();
        assertThat(group.getString("health")).isEqualTo("dead letters");
        assertThat(group.getString("health_reason")).contains("dead letter");
        assertThat(group).containsKeys("oldest_unresolved_age_ms", "rate_per_second");

        JsonObject placement = viewer.get("streams/" + Payment.STREAM + "/messages/" + ids.get(0)).json();
        assertThat(placement.getJsonNumber("message_id").longValue()).isEqualTo(ids.get(0));
        assertThat(placement.getJsonObject("groups").getJsonObject(DeclineOnceCards.GROUP).getString("state"))
                .isEqualTo("dead");
        await().atMost(WAIT).ignoreExceptions().until(() -> viewer.get("streams/" + Payment.STREAM
                + "/keys?key=console-key&limit=5").json().getJsonArray("messages").getJsonObject(0)
                .getJsonObject("groups").getJsonObject(DeclineOnceCards.GROUP).getString("state").equals("dead"));
        assertThat(viewer.get("streams/" + Payment.STREAM + "/keys?key=console-key").json().getJsonArray("messages")
                .getJsonObject(0).getJsonNumber("message_id").longValue()).isEqualTo(keyed);
        JsonObject errors = viewer.get(GROUP_PATH + "/dead/errors?" + selection).json().getJsonArray("errors")
                .getJsonObject(0);
        assertThat(errors.getString("last_error")).contains("card declined");
        assertThat(errors.getJsonObject("sample_payload").toString()).contains("console-");
        assertThat(viewer.get("schedules").json().getJsonArray("schedules")).isNotNull();
        assertThat(viewer.get("alerts").json().getJsonArray("alerts")).isNotNull();
        assertThat(viewer.get(GROUP_PATH + "/dead?" + selection + "&limit=2").json()
                .getJsonArray("letters")).hasSize(2);

        JsonObject viewerSession = viewer.get("session").json();
        assertThat(viewerSession.getString("user")).isEqualTo(VIEWER);
        assertThat(viewerSession.getBoolean("operator")).isFalse();
        ConsoleEndpoint.Answer refused = viewer.post(GROUP_PATH + "/dead/redrive?" + selection,
                viewerSession.getString("csrf"));
        assertError(refused, 403, "SQL0164");
        assertThat(refused.json().getString("message")).contains("sqlstreams-operator");

        String csrf = operator.get("session").json().getString("csrf");
        assertError(operator.post(GROUP_PATH + "/dead/redrive?" + selection, null), 403, "SQL0164");
        assertError(operator.post(GROUP_PATH + "/dead/redrive?" + selection, "forged"), 403, "SQL0164");

        JsonObject dryRun = operator.post(GROUP_PATH + "/dead/redrive?" + selection + "&dry_run=true", csrf).json();
        assertThat(dryRun.getBoolean("dry_run")).isTrue();
        assertThat(dryRun.getJsonNumber("count").longValue()).isEqualTo(3);
        assertThat(viewer.get(GROUP_PATH + "/dead/count?" + selection).json().getJsonNumber("count").longValue())
                .as("a dry run changes nothing").isEqualTo(3);

        ConsoleEndpoint.Answer redriven = operator.post(GROUP_PATH + "/dead/redrive?" + selection, csrf);
        assertThat(redriven.status()).isEqualTo(200);
        assertThat(redriven.json().getJsonNumber("count").longValue()).isEqualTo(3);
        assertThat(redriven.json().getJsonObject("action").getString("actor")).isEqualTo(OPERATOR);
        await().atMost(WAIT).ignoreExceptions().until(() -> viewer.get(GROUP_PATH + "/dead/count?" + selection).json()
                .getJsonNumber("count").longValue() == 0);
        JsonObject detail = viewer.get(GROUP_PATH).json();
        assertThat(detail.getJsonArray("actions").getJsonObject(0).getString("kind")).isEqualTo("redrive");
        assertThat(detail.getJsonObject("fence").getString("consumer")).isEqualTo(DeclineOnceCards.GROUP);
        assertThat(detail.getJsonObject("fence").getString("summary")).isNotBlank();

        assertThat(operator.post(GROUP_PATH + "/pause", csrf).json().getBoolean("changed")).isTrue();
        assertThat(viewer.get(GROUP_PATH).json().getBoolean("paused")).isTrue();
        assertThat(operator.post(GROUP_PATH + "/resume", csrf).json().getBoolean("changed")).isTrue();
        assertThat(viewer.get(GROUP_PATH).json().getBoolean("paused")).isFalse();
    }

    @Test
    void badInputIsACodedJsonError() throws Exception {
        ConsoleEndpoint viewer = ConsoleEndpoint.as(server(), APPLICATION, VIEWER, PASSWORD);

        assertError(viewer.get(GROUP_PATH + "/dead?limit=0"), 400, "SQL0152");
        assertError(viewer.get(GROUP_PATH + "/dead?from_id=ten"), 400, "SQL0152");
        assertError(viewer.get("groups/" + Payment.STREAM + "/no-such-group"), 404, "SQL0014");
        assertError(viewer.get("groups/no.such.stream/" + DeclineOnceCards.GROUP + "/dead/count"), 404, "SQL0005");
        assertError(viewer.get("groups/Bad%20Name/" + DeclineOnceCards.GROUP), 400, "SQL0109");
        String injection = URLEncoder.encode("%'; DROP TABLE " + SCHEMA + ".consumers; --" + "\u0000",
                StandardCharsets.UTF_8);
        assertError(viewer.get(GROUP_PATH + "/dead/count?error=" + injection), 400, "SQL0152");
        assertThat(viewer.get(GROUP_PATH + "/dead/count?error="
                + URLEncoder.encode("%'; DROP TABLE x; --", StandardCharsets.UTF_8)).json()
                .getJsonNumber("count").longValue()).as("SQL text in a filter is only text").isZero();
        assertError(viewer.post(GROUP_PATH + "/dead/count", null), 405, "SQL0164");

        String messages = "streams/" + Payment.STREAM + "/";
        assertError(viewer.get("streams/no.such.stream/messages/1"), 404, "SQL0005");
        assertError(viewer.get(messages + "messages/ten"), 400, "SQL0152");
        assertError(viewer.get(messages + "messages/0"), 400, "SQL0152");
        assertError(viewer.get(messages + "keys?key=k&limit=100000"), 400, "SQL0152");
        assertError(viewer.get(GROUP_PATH + "/dead?limit=100000"), 400, "SQL0152");
        assertError(viewer.get(GROUP_PATH + "/dead/errors?limit=100000"), 400, "SQL0152");
        assertError(viewer.get(messages + "keys?key=" + injection), 400, "SQL0152");
        assertThat(viewer.get(messages + "keys?key=" + URLEncoder.encode("'; DROP TABLE x; --", StandardCharsets.UTF_8))
                .json().getJsonArray("messages")).as("SQL text in a key is only text").isEmpty();
        assertError(viewer.get(messages + "keys"), 400, "SQL0152");
        assertError(viewer.get(messages + "messages/999999999"), 404, "SQL0164");
        assertError(viewer.post("alerts", null), 405, "SQL0164");
        assertError(viewer.post(messages + "messages/1", null), 405, "SQL0164");
        assertError(viewer.get("no-such-endpoint"), 404, "SQL0164");

        ConsoleEndpoint operator = ConsoleEndpoint.as(server(), APPLICATION, OPERATOR, PASSWORD);
        String csrf = operator.get("session").json().getString("csrf");
        JsonObject before = viewer.get(GROUP_PATH).json();
        assertError(operator.post("groups/" + Payment.STREAM + "/no-such-group/dead/redrive", csrf), 404, "SQL0014");
        assertError(operator.post("groups/no.such.stream/" + DeclineOnceCards.GROUP + "/pause", csrf), 404, "SQL0005");
        assertError(operator.post(GROUP_PATH + "/dead/discard?id=1,x", csrf), 400, "SQL0152");
        assertError(operator.post(GROUP_PATH + "/dead/discard?dead_since=yesterday", csrf), 400, "SQL0152");
        assertError(operator.post(GROUP_PATH + "/dead/redrive?error=" + injection, csrf), 400, "SQL0152");
        JsonObject after = viewer.get(GROUP_PATH).json();
        assertThat(after.getJsonArray("actions")).as("no bad request changed anything")
                .isEqualTo(before.getJsonArray("actions"));
        assertThat(after.getBoolean("paused")).isEqualTo(before.getBoolean("paused"));
        assertThat(after.getJsonNumber("dead")).isEqualTo(before.getJsonNumber("dead"));
    }

    private long produceKeyed(String key) {
        try (Producer<Payment> producer = stream.producer().register()) {
            return producer.produce(new Payment("console-keyed"), ProduceOptions.builder().messageKey(key).build())
                    .id();
        }
    }

    private static void assertError(ConsoleEndpoint.Answer answer, int status, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.json().getString("code")).isEqualTo(code);
        assertThat(answer.json().getString("message")).isNotBlank().doesNotContain("\tat ");
    }
}
