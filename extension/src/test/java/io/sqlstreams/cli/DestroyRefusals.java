package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What every destroy verb with a typed confirmation shares: without {@code --yes} it cannot run unattended. */
final class DestroyRefusals {
    private DestroyRefusals() {
    }

    /**
     * Runs {@code args} (a destroy naming {@code name}) without a terminal, and with JSON output from a terminal
     * where {@code name} is typed: both are usage errors that print nothing on standard output, the second as a JSON
     * error.
     */
    static void assertNeedsYes(Map<String, String> environment, String name, String... args) {
        List<String> json = new ArrayList<>(List.of(args));
        json.addAll(List.of("-o", "json"));

        CliRun noTerminal = CliRun.run(environment, args);
        CliRun jsonRun = CliRun.typing(name + "\n", environment, json.toArray(String[]::new));

        assertThat(List.of(noTerminal, jsonRun)).extracting(CliRun::exitCode).containsOnly(ExitCodes.USAGE);
        assertThat(noTerminal.out() + jsonRun.out()).isEmpty();
        assertThat(noTerminal.errLines()).singleElement().asString()
                .startsWith("usage: no terminal to confirm on: pass --yes to destroy without asking");
        assertThat(jsonRun.error().getString("code")).isEqualTo("usage");
        assertThat(jsonRun.error().getString("problem")).startsWith("--output json needs --yes");
    }
}
