package io.sqlstreams.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CauseChainTest {
    @Test
    void aChainIsListedOutermostFirst() {
        IllegalStateException root = new IllegalStateException("root");
        RuntimeException middle = new RuntimeException("middle", root);
        RuntimeException top = new RuntimeException("top", middle);

        assertThat(CauseChain.of(top)).containsExactly(top, middle, root);
        assertThat(CauseChain.of(null)).isEmpty();
    }

    @Test
    void aCycleEndsTheChainAtTheFirstRepeat() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);

        assertThat(CauseChain.of(a)).containsExactly(a, b);
    }
}
