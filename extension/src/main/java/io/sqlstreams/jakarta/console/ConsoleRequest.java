package io.sqlstreams.jakarta.console;

import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;

/** One API call: lets a reading run only for GET, and a change only for POST by an operator of this session. */
final class ConsoleRequest {
    private final HttpServletRequest request;

    ConsoleRequest(HttpServletRequest request) {
        this.request = request;
    }

    HttpServletRequest http() {
        return request;
    }

    JsonValue read(Supplier<JsonValue> reading) {
        requireMethod("GET");
        return reading.get();
    }

    /** Runs {@code change} for an operator whose request carries the session's CSRF token, else refuses (403). */
    JsonValue change(Supplier<JsonValue> change) {
        requireMethod("POST");
        if (!request.isUserInRole(ConsoleRegistration.OPERATOR)) {
            throw ConsoleFailure.forbidden("changes need the role " + ConsoleRegistration.OPERATOR);
        }
        CsrfGuard.check(request);
        return change.get();
    }

    /** Who the audit trail names for a change. */
    String actor() {
        return request.getUserPrincipal().getName();
    }

    private void requireMethod(String method) {
        if (!request.getMethod().equals(method)) {
            throw ConsoleFailure.methodNotAllowed(request.getMethod());
        }
    }
}
