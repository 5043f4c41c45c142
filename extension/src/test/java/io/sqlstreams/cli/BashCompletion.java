package io.sqlstreams.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What bash offers at the end of a command line with the tool's completion script sourced, as a TAB would. */
final class BashCompletion {
    /**
     * Splits the line into the words bash hands a completion function (an empty last word after a trailing space),
     * runs the script's entry function and prints its candidates one a line. {@code compopt} works only while bash
     * itself is completing, so it is a no-op here.
     */
    private static final String COMPLETE = """
            source "$1"
            compopt() { :; }
            COMP_LINE="$2"
            read -ra COMP_WORDS <<< "$COMP_LINE"
            if [[ "$COMP_LINE" == *" " ]]; then COMP_WORDS+=(""); fi
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_POINT=${#COMP_LINE}
            _complete_sqlstreams
            printf '%s\\n' "${COMPREPLY[@]}"
            """;

    private BashCompletion() {
    }

    static List<String> candidates(Path script, String line) throws IOException, InterruptedException {
        Process bash = new ProcessBuilder("bash", "-c", COMPLETE, "complete", script.toString(), line)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!bash.waitFor(1, TimeUnit.MINUTES) || bash.exitValue() != 0) {
            bash.destroyForcibly();
            throw new AssertionError("bash did not complete " + line + ": " + out);
        }
        return out.lines().filter(candidate -> !candidate.isEmpty()).toList();
    }
}
