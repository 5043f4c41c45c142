package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BenchPayloadTest {

    @Test
    void jsonIsAboutOneThousandBytes() {
        assertThat(BenchPayload.json(3)).allSatisfy(json -> assertThat(json.length()).isEqualTo(1000))
                .allSatisfy(json -> assertThat(json).startsWith("{\"id\":"));
    }
}
