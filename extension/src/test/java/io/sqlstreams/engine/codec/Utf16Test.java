package io.sqlstreams.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lone surrogates found wherever they stand; pairs, and text without surrogates, pass. */
class Utf16Test {

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "clé-ß-日本", "😀", "x\uD83D\uDE00y", "\uD83D\uDE00\uD83D\uDE00"})
    void wellFormedTextPasses(String text) {
        assertThat(Utf16.wellFormed(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uD800", "\uDC00", "x\uD800y", "x\uDE00y", "end\uD83D", "\uDE00\uD83D", "😀\uD800",
            "\uD800\uD800\uDC00"})
    void aLoneSurrogateAnywhereFails(String text) {
        assertThat(Utf16.wellFormed(text)).isFalse();
    }
}
