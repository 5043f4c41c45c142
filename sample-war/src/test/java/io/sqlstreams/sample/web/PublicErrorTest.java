package io.sqlstreams.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;

import io.sqlstreams.Outcome;
import io.sqlstreams.sample.charges.CardGatewayUnavailableException;

class PublicErrorTest {

    @Test
    void aStackTraceBecomesItsExceptionsMessage() {
        CardGatewayUnavailableException unavailable = new CardGatewayUnavailableException("o-1", 1);
        unavailable.initCause(new UncheckedIOException("connect", new IOException("connection refused")));
        String recorded = stackTrace(unavailable);
        assertThat(recorded).as("what the engine records").contains("\n\tat ", "Caused by: ");

        assertThat(PublicError.of(recorded)).isEqualTo("the card gateway is unavailable for order o-1 (attempt 1)");
    }

    @Test
    void aCodedErrorKeepsItsCode() {
        String declined = Outcome.terminal("the card for order o-1 was declined").getMessage();
        assertThat(PublicError.of(declined)).as("recorded as its message")
                .isEqualTo("SQL0055 delivery cannot succeed: the card for order o-1 was declined");
        assertThat(PublicError.of(stackTrace(Outcome.terminal(new IOException("disk full")))))
                .isEqualTo("SQL0055 delivery cannot succeed: java.io.IOException: disk full");
        assertThat(PublicError.of("handler asked to run it later: delay PT5S [SQL0054]"))
                .isEqualTo("handler asked to run it later: delay PT5S [SQL0054]");
    }

    @Test
    void anExceptionWithoutMessageShowsItsSimpleName() {
        assertThat(PublicError.of(stackTrace(new IllegalStateException()))).isEqualTo("IllegalStateException");
    }

    @Test
    void keepsOneLineOfBoundedLength() {
        assertThat(PublicError.of(stackTrace(new IllegalStateException("first line\nsecond line"))))
                .isEqualTo("first line");
        String longest = PublicError.of(stackTrace(new IllegalStateException("x".repeat(1000))));
        assertThat(longest).hasSize(PublicError.MAX_LENGTH + 1).endsWith("x…");
        assertThat(PublicError.of(null)).isNull();
    }

    /** The text the engine records for an exception that is not a coded library error: its stack trace. */
    private static String stackTrace(Throwable thrown) {
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        return text.toString().strip();
    }
}
