package io.sqlstreams;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one way user-given text is echoed in messages: quoted, Java-string escaped, always one line. */
class QuotingTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "plain            | orders.created      | \"orders.created\"",
            "newline          | 'orders\ncreated'   | \"orders\\ncreated\"",
            "carriage, tab    | 'a\r\tb'            | \"a\\r\\tb\"",
            "quote, backslash | 'say \"hi\" \\'     | \"say \\\"hi\\\" \\\\\"",
            "bell             | 'x\u0007y'          | \"x\\u0007y\"",
            "line separators  | 'a\u2028b\u2029c'   | \"a\\u2028b\\u2029c\"",
            "lone surrogate   | 'x\uD800y'          | \"x\\uD800y\"",
            "surrogate pair   | 'x😀y'              | \"x😀y\"",
            "empty            | ''                  | \"\""})
    void quoteEscapesAsAJavaStringLiteral(String what, String text, String quoted) {
        assertThat(Quoting.quote(text)).isEqualTo(quoted);
        assertThat(Quoting.quote(text).lines()).as(what).hasSize(1);
    }

    /** Apart from the table: the CSV parser drops a NUL. */
    @Test
    void aNulIsEscaped() {
        assertThat(Quoting.quote("x\u0000y")).isEqualTo("\"x\\u0000y\"");
    }

    @Test
    void nullIsEchoedAsNull() {
        assertThat(Quoting.quote(null)).isEqualTo("null");
    }

    @Test
    void oneLineEscapesOnlyWhatBreaksALine() {
        assertThat(Quoting.oneLine("Unmatched argument: 'a\nb' \"c\" \\d"))
                .isEqualTo("Unmatched argument: 'a\\nb' \"c\" \\d");
    }

    @Test
    void anInvalidNameMessageIsOneLineWithTheNameQuoted() {
        InvalidNameException invalid = new InvalidNameException("stream", "a\nb", "must be a resource name");

        assertThat(invalid.getMessage()).isEqualTo("SQL0109 invalid stream name \"a\\nb\": must be a resource name");
        assertThat(invalid.name()).isEqualTo("a\nb");
    }
}
