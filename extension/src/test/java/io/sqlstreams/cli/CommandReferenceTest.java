package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * {@code docs/cli.md} describes every command the tool has: each leaf of the command tree is named by a heading
 * such as {@code ### `consumer dead redrive|discard <stream> <group> …`}, where {@code a|b} names both.
 */
class CommandReferenceTest {
    private static final Pattern HEADING = Pattern.compile("^### `([^`]*)`", Pattern.MULTILINE);

    @Test
    void everyCommandHasAHeadingInTheReference() throws IOException {
        Set<String> commands = new TreeSet<>();
        leaves(SqlStreamsCli.commandLine(Map.of(), Prompt.NONE), commands);
        Set<String> documented = new TreeSet<>();
        Matcher heading = HEADING.matcher(Files.readString(repositoryRoot().resolve("docs/cli.md"),
                StandardCharsets.UTF_8));
        while (heading.find()) {
            documented.addAll(named(heading.group(1)));
        }

        assertThat(commands).isNotEmpty();
        assertThat(documented).as("commands docs/cli.md describes").containsAll(commands);
    }

    /** The commands of the tree below {@code command} that run something, without the tool's own name. */
    private static void leaves(CommandLine command, Set<String> into) {
        if (command.getSubcommands().isEmpty()) {
            into.add(command.getCommandSpec().qualifiedName(" ").substring("sqlstreams ".length()));
        }
        command.getSubcommands().values().forEach(sub -> leaves(sub, into));
    }

    /** The commands a heading names: its words up to the first argument or flag, each {@code a|b} expanded. */
    private static List<String> named(String heading) {
        List<String> names = List.of("");
        for (String word : heading.split(" ")) {
            if (!word.matches("[a-z][a-z-]*(\\|[a-z][a-z-]*)*")) {
                break;
            }
            List<String> longer = new ArrayList<>();
            for (String name : names) {
                for (String alternative : word.split("\\|")) {
                    longer.add(name.isEmpty() ? alternative : name + " " + alternative);
                }
            }
            names = longer;
        }
        return names;
    }

    /** The repository's root, found from the module (Maven's working directory) or the root itself. */
    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Stream.iterate(here, path -> path != null, Path::getParent)
                .filter(path -> Stream.of("api", "extension").allMatch(module -> Files.isDirectory(path.resolve(module))))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no repository root above " + here));
    }
}
