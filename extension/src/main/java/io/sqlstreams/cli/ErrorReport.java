package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.util.Locale;

import io.sqlstreams.Code;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.InvalidNameException;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * One failure of a run as standard error shows it: a line that starts with its code (or {@code usage:}), or with
 * {@code --output json} one JSON document of {@code code}, {@code problem}, {@code recovery}, {@code values},
 * {@code cause}, {@code fix} and {@code docs}. {@code values} holds only what the command line named (a name, an
 * option's value) or where PostgreSQL is ({@code host:port}): never a database URL, which may carry a password.
 *
 * @param code     the diagnostic code, {@code usage} for a wrong command line, {@code internal} for a bug
 * @param problem  what went wrong, in one sentence
 * @param recovery {@code transient} when an unchanged retry may succeed, {@code permanent} when it will not
 * @param values   the values the failure is about
 * @param cause    the innermost cause's message, or null
 * @param fix      what to do about it
 * @param docs     where to read more: a command to run
 */
record ErrorReport(String code, String problem, String recovery, JsonObject values, String cause, String fix,
                   String docs) {
    private static final String USAGE = "usage";
    private static final String INTERNAL = "internal";
    private static final String PERMANENT = "permanent";

    /** A wrong command line of the command {@code qualifiedName}. */
    static ErrorReport usage(String problem, String qualifiedName) {
        return new ErrorReport(USAGE, problem, PERMANENT, JsonValue.EMPTY_JSON_OBJECT, null,
                "correct the command line; its --help lists the arguments and options", qualifiedName + " --help");
    }

    /** A library error; {@code problem} is its message without the leading code. */
    static ErrorReport coded(SqlStreamsException failure) {
        String message = failure.getMessage();
        String prefix = failure.code().id() + " ";
        return coded(failure.code(), message.startsWith(prefix) ? message.substring(prefix.length()) : message,
                values(failure), failure.getCause() == null ? null : innermostMessage(failure));
    }

    static ErrorReport coded(Code code, String problem, JsonObject values, String cause) {
        String recovery = code.recovery() == Code.Recovery.NONE ? null : code.recovery().name().toLowerCase(Locale.ROOT);
        return new ErrorReport(code.id(), problem, recovery, values, cause, code.action(), "sqlstreams explain "
                + code.id());
    }

    /** A failure the tool did not expect: a bug to report, with no code of its own. */
    static ErrorReport internal(Exception failure) {
        return new ErrorReport(INTERNAL, failure.toString(), null, JsonValue.EMPTY_JSON_OBJECT, null,
                "report it with the command that failed", "sqlstreams --help");
    }

    /** The failure's innermost cause, which says it plainest ("Connection refused"). */
    static Throwable innermost(Throwable failure) {
        Throwable innermost = failure;
        while (innermost.getCause() != null) {
            innermost = innermost.getCause();
        }
        return innermost;
    }

    /** The innermost cause's message, or its class's name when it has none. */
    static String innermostMessage(Throwable failure) {
        Throwable innermost = innermost(failure);
        return innermost.getMessage() == null ? innermost.getClass().getSimpleName() : innermost.getMessage();
    }

    /** Writes the report to {@code err}: one line of text, or one JSON document on one line. */
    void print(PrintWriter err, boolean json) {
        err.println(json ? document() : Quoting.oneLine(line()));
        err.flush();
    }

    private String line() {
        return switch (code) {
            case USAGE -> "usage: " + problem + " (see '" + docs + "')";
            case INTERNAL -> "internal error: " + problem;
            default -> code + " " + problem;
        };
    }

    private String document() {
        JsonObjectBuilder document = Json.createObjectBuilder().add("code", code).add("problem", problem);
        addNullable(document, "recovery", recovery);
        document.add("values", values);
        addNullable(document, "cause", cause);
        document.add("fix", fix).add("docs", docs);
        return Output.oneLine(document.build());
    }

    private static void addNullable(JsonObjectBuilder document, String field, String value) {
        if (value == null) {
            document.addNull(field);
        } else {
            document.add(field, value);
        }
    }

    /** What the failure names: the rejected name, or each rejected setting and its value. */
    private static JsonObject values(SqlStreamsException failure) {
        JsonObjectBuilder values = Json.createObjectBuilder();
        if (failure instanceof InvalidNameException name) {
            values.add("kind", name.kind());
            addNullable(values, "name", name.name());
        } else if (failure instanceof InvalidConfigurationException invalid) {
            invalid.violations().forEach(violation -> addNullable(values, violation.property(),
                    violation.value() == null ? null : violation.value().toString()));
        }
        return values.build();
    }
}
