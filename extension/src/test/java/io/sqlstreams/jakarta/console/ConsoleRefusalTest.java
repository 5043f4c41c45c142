package io.sqlstreams.jakarta.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Code;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The console's own refusals (an unknown page 404, a wrong method 405, a change without the operator role 403)
 * answer with SQL0164 as their code, as the engine's refusals answer with theirs. The servlet is called in process
 * with a request and a response that record what it sets; the HTTP round trip is the tck's ConsoleScenario.
 */
class ConsoleRefusalTest {

    @Test
    void anUnknownPageIs404WithTheRefusalCode() throws Exception {
        Answer answer = serve("GET", "/no-such-page");

        assertThat(answer.status).isEqualTo(404);
        assertThat(answer.json().get("code")).isEqualTo(Json.createValue(Code.SQL0164.id()));
        assertThat(answer.json().getString("message")).isEqualTo("no console page /no-such-page");
    }

    @Test
    void aPostToThePageIs405WithTheRefusalCode() throws Exception {
        Answer answer = serve("POST", "/index.html");

        assertThat(answer.status).isEqualTo(405);
        assertThat(answer.json().get("code")).isEqualTo(Json.createValue(Code.SQL0164.id()));
    }

    @Test
    void aChangeWithoutTheOperatorRoleIs403WithTheRefusalCode() {
        ConsoleRequest viewer = new ConsoleRequest(request("POST", "/api/groups/s/g/pause"));

        ConsoleFailure refused = catchThrowableOfType(() -> viewer.change(() -> JsonValue.TRUE),
                ConsoleFailure.class);

        assertThat(refused.status()).isEqualTo(403);
        JsonObject body = ConsoleJson.failure(refused);
        assertThat(body.get("code")).isEqualTo(Json.createValue(Code.SQL0164.id()));
        assertThat(body.getString("message")).isEqualTo("changes need the role " + ConsoleRegistration.OPERATOR);
    }

    private static Answer serve(String method, String path) throws Exception {
        Answer answer = new Answer();
        new ConsoleServlet().service(request(method, path), answer.response());
        return answer;
    }

    private static HttpServletRequest request(String method, String path) {
        return (HttpServletRequest) Proxy.newProxyInstance(ConsoleRefusalTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, called, arguments) -> switch (called.getName()) {
                    case "getMethod" -> method;
                    case "getPathInfo" -> path;
                    case "getRequestURI" -> "/console" + path;
                    case "isUserInRole" -> false;
                    default -> throw new UnsupportedOperationException(called.getName());
                });
    }

    /** What the servlet set on its response. */
    private static final class Answer {
        private final StringWriter body = new StringWriter();
        private final Map<String, String> headers = new HashMap<>();
        private int status;

        HttpServletResponse response() {
            return (HttpServletResponse) Proxy.newProxyInstance(ConsoleRefusalTest.class.getClassLoader(),
                    new Class<?>[] {HttpServletResponse.class}, (proxy, called, arguments) -> {
                        switch (called.getName()) {
                            case "setStatus" -> status = (Integer) arguments[0];
                            case "setHeader" -> headers.put((String) arguments[0], (String) arguments[1]);
                            case "setContentType", "setCharacterEncoding" -> {
                            }
                            case "getWriter" -> {
                                return new PrintWriter(body);
                            }
                            default -> throw new UnsupportedOperationException(called.getName());
                        }
                        return null;
                    });
        }

        JsonObject json() {
            assertThat(headers).containsEntry("Cache-Control", "no-store");
            try (JsonReader reader = Json.createReader(new StringReader(body.toString()))) {
                return reader.readObject();
            }
        }
    }
}
