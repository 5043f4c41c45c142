package io.sqlstreams.cli;

import java.net.UnknownHostException;
import java.sql.SQLException;

import io.sqlstreams.Code;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import jakarta.json.Json;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one {@link ErrorReport} on standard error and an exit code ({@link ExitCodes}): as text,
 * a library error starts with its code, a usage error with {@code usage:}; with {@code --output json} it is one
 * JSON document. No stack traces, and no line breaks from what a failure's text echoes (a mistyped argument, a
 * server message): they are escaped ({@link Quoting#oneLine}).
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {
    private static final String CONNECTION_FAILURE_CLASS = "08";

    @Override
    public int handleParseException(ParameterException failure, String[] args) {
        CommandLine command = failure.getCommandLine();
        ErrorReport.usage(failure.getMessage(), command.getCommandSpec().qualifiedName())
                .print(command.getErr(), OutputFormat.requestedJson(args));
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception failure, CommandLine command, ParseResult parsed) {
        boolean json = OutputFormat.requestedJson(parsed.originalArgs().toArray(String[]::new));
        if (!(failure instanceof SqlStreamsException coded)) {
            ErrorReport.internal(failure).print(command.getErr(), json);
            return ExitCodes.FAILED;
        }
        if (coded.code() == Code.SQL0110 && isConnectionFailure(coded)) {
            String location = SqlStreamsCommand.of(command.getCommandSpec()).databaseLocation();
            String reason = reason(coded);
            ErrorReport.coded(Code.SQL0110, "cannot reach PostgreSQL at " + location + ": " + reason,
                    Json.createObjectBuilder().add("location", location).build(), reason).print(command.getErr(), json);
            return ExitCodes.UNREACHABLE;
        }
        ErrorReport.coded(coded).print(command.getErr(), json);
        return switch (coded.code()) {
            case SQL0005, SQL0013, SQL0014, SQL0017, SQL0066, SQL0106 -> ExitCodes.ABSENT;
            case SQL0108, SQL0109, SQL0145, SQL0152 -> ExitCodes.USAGE;
            case SQL0110 -> ExitCodes.UNREACHABLE;
            default -> ExitCodes.FAILED;
        };
    }

    private static boolean isConnectionFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith(CONNECTION_FAILURE_CLASS)) {
                return true;
            }
        }
        return false;
    }

    /** "connection refused", a host name that does not resolve, a timeout. */
    private static String reason(Throwable failure) {
        Throwable innermost = ErrorReport.innermost(failure);
        if (innermost instanceof UnknownHostException) {
            return "unknown host " + innermost.getMessage();
        }
        String message = ErrorReport.innermostMessage(failure);
        return Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }
}
