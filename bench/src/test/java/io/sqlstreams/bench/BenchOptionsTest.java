package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void defaultsFollowBenchmarksMd() throws Exception {
        BenchOptions options = BenchOptions.parse(new String[] {"produce"});

        assertThat(options.repetitions()).isEqualTo(3);
        assertThat(options.measurement()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.jdbcUrl()).isEmpty();
        assertThat(options.out()).endsWithRaw(Path.of("bench", "results"));
    }

    @Test
    void smokeShortensEverythingUnlessToldOtherwise() throws Exception {
        BenchOptions smoke = BenchOptions.parse(new String[] {"--smoke", "produce"});
        BenchOptions told = BenchOptions.parse(new String[] {"produce", "--smoke", "--repetitions", "2", "--seconds",
                "0.5", "--out", "x", "--jdbc-url", "jdbc:postgresql://127.0.0.1/db"});

        assertThat(smoke.repetitions()).isEqualTo(1);
        assertThat(smoke.measurement()).isEqualTo(Duration.ofSeconds(1));
        assertThat(smoke.out()).endsWithRaw(Path.of("bench", "target", "bench-smoke"));
        assertThat(told.repetitions()).isEqualTo(2);
        assertThat(told.measurement()).isEqualTo(Duration.ofMillis(500));
        assertThat(told.out()).isEqualTo(Path.of("x"));
        assertThat(told.jdbcUrl()).contains("jdbc:postgresql://127.0.0.1/db");
    }

    @Test
    void consumeScenarioSizesAreOptionalAndParsed() throws Exception {
        BenchOptions none = BenchOptions.parse(new String[] {"drain"});
        BenchOptions told = BenchOptions.parse(new String[] {"sustained", "--messages", "300000",
                "--competitor-messages", "100", "--rates", "500, 1000", "--step-seconds", "2.5", "--pickups", "5"});

        assertThat(none.messages()).isEmpty();
        assertThat(none.rates()).isEmpty();
        assertThat(none.stepLength()).isEmpty();
        assertThat(told.messages()).hasValue(300_000);
        assertThat(told.competitorMessages()).hasValue(100);
        assertThat(told.rates()).containsExactly(500, 1000);
        assertThat(told.stepLength()).contains(Duration.ofMillis(2500));
        assertThat(told.pickups()).hasValue(5);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"sustained", "--rates", "500,0"}))
                .hasMessageContaining("--rates");
    }

    @Test
    void chaosFlagsAreOptionalAndParsed() throws Exception {
        BenchOptions none = BenchOptions.parse(new String[] {"chaos"});
        BenchOptions told = BenchOptions.parse(new String[] {"chaos", "--consumers", "3", "--rate", "50", "--kills",
                "0", "--storms", "2", "--restarts", "1", "--seed", "-17", "--jdbc-url", "jdbc:postgresql://db/x",
                "--pg-restart-command", "systemctl restart pg"});

        assertThat(none.chaos()).isEqualTo(ChaosOptions.none());
        assertThat(told.chaos().consumers()).hasValue(3);
        assertThat(told.chaos().rate()).hasValue(50);
        assertThat(told.chaos().kills()).hasValue(0);
        assertThat(told.chaos().storms()).hasValue(2);
        assertThat(told.chaos().restarts()).hasValue(1);
        assertThat(told.chaos().seed()).hasValue(-17);
        assertThat(told.chaos().restartCommand()).contains("systemctl restart pg");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--consumers", "0"}))
                .hasMessageContaining("--consumers");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--kills", "-1"}))
                .hasMessageContaining("--kills needs a whole number of at least 0");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--seed", "x"}))
                .hasMessageContaining("--seed");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--pg-restart-command", " "}))
                .hasMessageContaining("--pg-restart-command needs a command");
    }

    @Test
    void theChaosHandlerIsPlainUnlessToldTransactionalAndNothingElse() throws Exception {
        assertThat(BenchOptions.parse(new String[] {"chaos"}).chaos().handler()).isEqualTo(HandlerMode.PLAIN);
        assertThat(BenchOptions.parse(new String[] {"chaos", "--handler", "plain"}).chaos().handler())
                .isEqualTo(HandlerMode.PLAIN);
        BenchOptions told = BenchOptions.parse(new String[] {"chaos", "--consumers", "3", "--handler",
                "transactional", "--rate", "50"});
        assertThat(told.chaos().handler()).isEqualTo(HandlerMode.TRANSACTIONAL);
        assertThat(told.chaos().consumers()).hasValue(3);
        assertThat(told.chaos().rate()).hasValue(50);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--handler", "Transactional"}))
                .isInstanceOf(BenchOptions.UsageException.class)
                .hasMessage("--handler needs plain or transactional, not Transactional");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--handler"}))
                .hasMessage("--handler needs a value");
        assertThat(Bench.run("chaos", "--handler", "batch")).as("a refused command line's exit status").isEqualTo(2);
    }

    @Test
    void theChaosFenceHoldersAreOnUnlessToldOffAndNothingElse() throws Exception {
        assertThat(BenchOptions.parse(new String[] {"chaos"}).chaos().fenceHolders()).isTrue();
        assertThat(BenchOptions.parse(new String[] {"chaos", "--fence-holders", "on"}).chaos().fenceHolders())
                .isTrue();
        BenchOptions told = BenchOptions.parse(new String[] {"chaos", "--fence-holders", "off", "--handler",
                "transactional"});
        assertThat(told.chaos().fenceHolders()).isFalse();
        assertThat(told.chaos().handler()).isEqualTo(HandlerMode.TRANSACTIONAL);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--fence-holders", "no"}))
                .isInstanceOf(BenchOptions.UsageException.class)
                .hasMessage("--fence-holders needs on or off, not no");
    }

    @Test
    void phaseLengthsAreOptionalAndParsed() throws Exception {
        BenchOptions none = BenchOptions.parse(new String[] {"mvcc"});
        BenchOptions told = BenchOptions.parse(new String[] {"mvcc", "--before", "1.5", "--during", "600",
                "--after", "2", "--seconds", "30", "--hold-seconds", "8", "--rate", "500"});

        assertThat(none.phases()).isEqualTo(PhaseOptions.none());
        assertThat(told.phases().before()).contains(Duration.ofMillis(1500));
        assertThat(told.phases().during()).contains(Duration.ofMinutes(10));
        assertThat(told.phases().after()).contains(Duration.ofSeconds(2));
        assertThat(told.phases().seconds()).contains(Duration.ofSeconds(30));
        assertThat(told.phases().hold()).contains(Duration.ofSeconds(8));
        assertThat(told.chaos().rate()).hasValue(500);
        assertThat(told.phases().horizon()).isEmpty();
        assertThat(BenchOptions.parse(new String[] {"mvcc", "--horizon", "snapshot"}).phases().horizon())
                .contains(HorizonHolder.Kind.SNAPSHOT);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"mvcc", "--during", "0"}))
                .hasMessageContaining("--during");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"mvcc", "--horizon", "lock"}))
                .hasMessageContaining("--horizon needs xid or snapshot");
    }

    @Test
    void handlerAndFailureFlagsAreOptionalAndParsed() throws Exception {
        BenchOptions none = BenchOptions.parse(new String[] {"handler"});
        BenchOptions told = BenchOptions.parse(new String[] {"handler", "--handler-ms", "0, 5", "--concurrency",
                "4,64", "--poison", "0"});

        assertThat(none.handler()).isEqualTo(HandlerOptions.none());
        assertThat(told.handler().handlerMillis()).containsExactly(0, 5);
        assertThat(told.handler().concurrency()).containsExactly(4, 64);
        assertThat(told.handler().poison()).hasValue(0);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"handler", "--handler-ms", "-1"}))
                .hasMessageContaining("--handler-ms needs a whole number of at least 0");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"handler", "--concurrency", "0"}))
                .hasMessageContaining("--concurrency needs a whole number of at least 1");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"failure", "--poison", "x"}))
                .hasMessageContaining("--poison");
    }

    @Test
    void aGivenServerIsRestartedOnlyThroughItsCommandAndTheEmbeddedOneNeedsNone() throws Exception {
        assertThat(BenchOptions.parse(new String[] {"chaos", "--jdbc-url", "jdbc:postgresql://db/x"}).chaos()
                .restarts()).as("restarts left to the default: none for a given server").isEmpty();
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--jdbc-url", "jdbc:postgresql://db/x",
                "--restarts", "1"})).hasMessageContaining("--restarts needs --pg-restart-command");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"chaos", "--pg-restart-command", "true"}))
                .hasMessageContaining("--pg-restart-command is for a server given by --jdbc-url");
    }

    @Test
    void badCommandLinesAreRefused() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {})).hasMessageContaining("scenario");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"produce", "--repetitions", "0"}))
                .hasMessageContaining("--repetitions");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"produce", "--seconds"}))
                .hasMessageContaining("needs a value");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"produce", "drain"}))
                .hasMessageContaining("unexpected argument");
    }
}
