package io.sqlstreams.jakarta.console;

import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.jakarta.SqlStreamsRuntime;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The operator console: its page under the console path, its JSON under {@code api/}. Every failure is answered
 * as JSON ({@code {"code": …, "message": …}}), never as a server error page.
 */
final class ConsoleServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final String API = "/api/";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // the page keeps all script and style in its own files, so nothing inline needs allowing
        response.setHeader("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        String path = request.getPathInfo();
        if (path == null) {
            // the page's relative links resolve below the console path only with its trailing slash
            response.sendRedirect(request.getRequestURI() + "/");
        } else if (path.startsWith(API)) {
            api(request, response, path.substring(API.length()));
        } else if (!request.getMethod().equals("GET")) {
            write(response, 405, ConsoleJson.failure(ConsoleFailure.methodNotAllowed(request.getMethod())));
        } else if (!ConsoleAssets.serve(path, response)) {
            write(response, 404, ConsoleJson.failure(ConsoleFailure.notFound("no console page " + path)));
        }
    }

    private void api(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        List<String> segments = Arrays.stream(path.split("/")).filter(segment -> !segment.isEmpty()).toList();
        ConsoleFailure failure;
        try {
            ConsoleApi api = new ConsoleApi(CDI.current().select(SqlStreamsRuntime.class).get().client());
            write(response, 200, api.answer(request, segments));
            return;
        } catch (ConsoleFailure refused) {
            failure = refused;
        } catch (SqlStreamsException refused) {
            failure = ConsoleFailure.of(refused);
            if (failure.status() >= 500) {
                log(refused.getMessage(), refused);
            }
        } catch (RuntimeException unexpected) {
            log("the operator console could not answer " + request.getMethod() + " api/" + path, unexpected);
            failure = new ConsoleFailure(500, null, "the console could not answer; the server log has the cause");
        }
        write(response, failure.status(), ConsoleJson.failure(failure));
    }

    private static void write(HttpServletResponse response, int status, JsonValue body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-store");
        try (JsonWriter writer = Json.createWriter(response.getWriter())) {
            writer.write(body);
        }
    }
}
