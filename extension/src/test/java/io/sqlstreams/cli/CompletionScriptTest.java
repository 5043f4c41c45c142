package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion script {@link CompletionScript} writes, sourced in bash and asked what a TAB offers. */
class CompletionScriptTest {
    private static Path script;

    @BeforeAll
    static void writeScript(@TempDir Path directory) throws Exception {
        script = directory.resolve("sqlstreams_completion");
        CompletionScript.main(new String[] {script.toString()});
    }

    @Test
    void aPrefixCompletesToTheCommandItStarts() throws Exception {
        assertThat(BashCompletion.candidates(script, "sqlstreams stream k")).containsExactly("key");
        assertThat(BashCompletion.candidates(script, "sqlstreams sch")).containsExactly("schedule");
    }

    @Test
    void aCommandOffersItsSubcommands() throws Exception {
        assertThat(BashCompletion.candidates(script, "sqlstreams stream key "))
                .containsExactlyInAnyOrder("get", "compaction-head", "messages");
        assertThat(BashCompletion.candidates(script, "sqlstreams stream config ")).containsExactly("get");
    }

    @Test
    void aLeafOffersItsOptions() throws Exception {
        assertThat(BashCompletion.candidates(script, "sqlstreams stream key messages --l")).containsExactly("--limit");
        assertThat(BashCompletion.candidates(script, "sqlstreams stream list --output "))
                .containsExactly("text", "json");
    }
}
