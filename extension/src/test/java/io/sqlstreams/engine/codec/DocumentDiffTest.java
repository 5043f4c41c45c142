package io.sqlstreams.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** The changed paths between two stored documents, as SQL0059 names them. */
class DocumentDiffTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static List<String> changes(String before, String after) {
        return DocumentDiff.between(json(before), json(after)).stream().map(DocumentDiff.Change::toString).toList();
    }

    @Test
    void identicalDocumentsHaveNoChange() {
        String document = "{\"message\":{\"timeout\":\"10s\",\"retry\":{\"max_retries\":3}},\"bindings\":[\"a.*\"]}";

        assertThat(changes(document, document)).isEmpty();
        assertThat(changes("{}", "{}")).isEmpty();
    }

    @Test
    void keyOrderIsNoChange() {
        assertThat(changes("{\"a\":1,\"b\":{\"x\":1,\"y\":2}}", "{\"b\":{\"y\":2,\"x\":1},\"a\":1}")).isEmpty();
    }

    @Test
    void aNestedValueIsNamedByItsDottedPathAndNothingElse() {
        assertThat(changes("{\"message\":{\"timeout\":\"10s\",\"retry\":{\"max_retries\":3,\"base_delay\":\"1s\"}}}",
                "{\"message\":{\"timeout\":\"10s\",\"retry\":{\"max_retries\":5,\"base_delay\":\"1s\"}}}"))
                .containsExactly("message.retry.max_retries 3 -> 5");
    }

    @Test
    void addedAndRemovedKeysReadUnset() {
        assertThat(changes("{\"message\":{\"retry\":{\"max_retries\":3}},\"max_range_reclaims\":7}",
                "{\"message\":{\"timeout\":\"30s\",\"retry\":{\"max_retries\":3}}}"))
                .containsExactly("message.timeout (unset) -> 30s", "max_range_reclaims 7 -> (unset)");
    }

    @Test
    void anObjectThatAppearsOrVanishesIsOneChangeOfTheWholeValue() {
        assertThat(changes("{}", "{\"message_max\":{\"timeout\":\"20s\"}}"))
                .containsExactly("message_max (unset) -> {\"timeout\":\"20s\"}");
        assertThat(changes("{\"message\":{\"retry\":{}}}", "{\"message\":{}}"))
                .as("an empty retry policy is not the same as none")
                .containsExactly("message.retry {} -> (unset)");
    }

    @Test
    void arraysChangeAsAWhole() {
        assertThat(changes("{\"bindings\":[]}", "{\"bindings\":[\"a.*\"]}"))
                .containsExactly("bindings [] -> [\"a.*\"]");
        assertThat(changes("{\"bindings\":[\"a.*\",\"b.*\"]}", "{\"bindings\":[\"b.*\",\"a.*\"]}"))
                .as("order within an array counts")
                .containsExactly("bindings [\"a.*\",\"b.*\"] -> [\"b.*\",\"a.*\"]");
    }

    @Test
    void aJsonNullIsNotAnAbsentKey() {
        assertThat(changes("{\"timeout\":null}", "{}")).containsExactly("timeout null -> (unset)");
        assertThat(changes("{}", "{\"timeout\":null}")).containsExactly("timeout (unset) -> null");
        assertThat(changes("{\"timeout\":null}", "{\"timeout\":\"5s\"}")).containsExactly("timeout null -> 5s");
        assertThat(changes("{\"timeout\":null}", "{\"timeout\":null}")).isEmpty();
    }

    @Test
    void aChangeOfTypeIsOneChange() {
        assertThat(changes("{\"message\":{\"timeout\":\"10s\"}}", "{\"message\":\"10s\"}"))
                .containsExactly("message {\"timeout\":\"10s\"} -> 10s");
    }

    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource(delimiter = '|', value = {
            "\"30s\"                   | 30s",
            "\"exclusive\"             | exclusive",
            "\"2026-11-30T06:00:00Z\"  | 2026-11-30T06:00:00Z",
            "\"5\"                     | \"5\"",
            "\"true\"                  | \"true\"",
            "\"null\"                  | \"null\"",
            "\"\"                      | \"\"",
            "\"(unset)\"               | \"(unset)\"",
            "\"two words\"             | \"two words\"",
            "5                         | 5",
            "1.5                       | 1.5",
            "true                      | true",
            "[1,2]                     | [1,2]"})
    void aStringGoesBareOnlyWhereItCannotBeMistakenForAnotherValue(String value, String shown) {
        assertThat(changes("{}", "{\"k\":" + value + "}")).containsExactly("k (unset) -> " + shown);
    }

    @Test
    void aChangeKeepsBothValuesAndThePath() {
        DocumentDiff.Change change = DocumentDiff.between(json("{\"a\":{\"b\":1}}"), json("{\"a\":{}}")).get(0);

        assertThat(change.path()).isEqualTo("a.b");
        assertThat(change.before()).isEqualTo(Json.createValue(1));
        assertThat(change.after()).isNull();
        assertThat(DocumentDiff.between(json("{\"a\":null}"), json("{}")).get(0).before())
                .isEqualTo(JsonValue.NULL);
    }
}
