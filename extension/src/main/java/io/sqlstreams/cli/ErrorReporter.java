package io.sqlstreams.cli;

import java.io.PrintWriter;
import java.net.UnknownHostException;
import java.sql.SQLException;

import io.sqlstreams.Code;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreamsException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line on standard error and an exit code ({@link ExitCodes}): a library error
 * starts with its code, a usage error with {@code usage:}. No stack traces, and no line breaks from what a
 * failure's text echoes (a mistyped argument, a server message): they are escaped ({@link Quoting#oneLine}).
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {
    private static final String CONNECTION_FAILURE_CLASS = "08";

    @Override
    public int handleParseException(ParameterException failure, String[] args) {
        CommandLine command = failure.getCommandLine();
        println(command.getErr(), "usage: " + failure.getMessage() + " (see '"
                + command.getCommandSpec().qualifiedName() + " --help')");
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception failure, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        if (!(failure instanceof SqlStreamsException coded)) {
            println(err, "internal error: " + failure);
            return ExitCodes.FAILED;
        }
        if (coded.code() == Code.SQL0110 && isConnectionFailure(coded)) {
            println(err, Code.SQL0110.id() + " cannot reach PostgreSQL at "
                    + SqlStreamsCommand.of(command.getCommandSpec()).databaseLocation() + ": " + reason(coded));
            return ExitCodes.UNREACHABLE;
        }
        println(err, coded.getMessage());
        return switch (coded.code()) {
            case SQL0005, SQL0013, SQL0014, SQL0017, SQL0066, SQL0106 -> ExitCodes.ABSENT;
            case SQL0108, SQL0109, SQL0145, SQL0152 -> ExitCodes.USAGE;
            case SQL0110 -> ExitCodes.UNREACHABLE;
            default -> ExitCodes.FAILED;
        };
    }

    private static void println(PrintWriter err, String line) {
        err.println(Quoting.oneLine(line));
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

    /** The innermost cause says it plainest: "Connection refused", a host name that does not resolve, a timeout. */
    private static String reason(Throwable failure) {
        Throwable innermost = failure;
        while (innermost.getCause() != null) {
            innermost = innermost.getCause();
        }
        if (innermost instanceof UnknownHostException) {
            return "unknown host " + innermost.getMessage();
        }
        String message = innermost.getMessage() == null ? innermost.getClass().getSimpleName() : innermost.getMessage();
        return Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }
}
