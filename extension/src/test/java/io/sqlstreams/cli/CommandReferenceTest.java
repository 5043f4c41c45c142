package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
 * such as {@code ### `consumer dead redrive|discard <stream> <group> …`}, where {@code a|b} names both; each has
 * its JSON document in the table of "JSON output"; and "Errors and exit codes" has a row for every exit code.
 */
class CommandReferenceTest {
    private static final Pattern HEADING = Pattern.compile("^### `([^`]*)`", Pattern.MULTILINE);
    private static final String JSON_SECTION = "JSON output";
    private static final String EXIT_SECTION = "Errors and exit codes";
    /** A row of the JSON table: its first cell names commands in code spans, {@code stream janitor …} a family. */
    private static final Pattern JSON_TABLE_ROW = Pattern.compile("^\\| (`[^|]*) \\|", Pattern.MULTILINE);
    private static final Pattern EXIT_TABLE_ROW = Pattern.compile("^\\| (\\d+) \\|", Pattern.MULTILINE);
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]*)`");
    /** It prints log lines until stopped and refuses {@code --output json}. */
    private static final String WITHOUT_JSON = "manager run";

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

    @Test
    void everyCommandHasItsJsonDocumentInTheReference() throws IOException {
        Set<String> commands = new TreeSet<>();
        leaves(SqlStreamsCli.commandLine(Map.of(), Prompt.NONE), commands);
        commands.remove(WITHOUT_JSON);
        List<String> described = new ArrayList<>();
        Matcher row = JSON_TABLE_ROW.matcher(section(JSON_SECTION));
        while (row.find()) {
            Matcher name = CODE_SPAN.matcher(row.group(1));
            while (name.find()) {
                described.add(name.group(1));
            }
        }

        assertThat(commands).isNotEmpty();
        assertThat(commands.stream().filter(command -> described.stream().noneMatch(name -> covers(name, command))))
                .as("commands without a row in docs/cli.md's JSON table").isEmpty();
    }

    /** Whether a name in the JSON table is the command, or a family ({@code stream janitor …}) it belongs to. */
    private static boolean covers(String name, String command) {
        return name.equals(command) || name.endsWith(" …") && command.startsWith(name.substring(0, name.length() - 1));
    }

    @Test
    void everyExitCodeHasARowInTheReference() throws IOException, IllegalAccessException {
        Set<Integer> documented = new TreeSet<>();
        Matcher row = EXIT_TABLE_ROW.matcher(section(EXIT_SECTION));
        while (row.find()) {
            documented.add(Integer.parseInt(row.group(1)));
        }
        Set<Integer> codes = new TreeSet<>();
        for (Field constant : ExitCodes.class.getDeclaredFields()) {
            if (Modifier.isStatic(constant.getModifiers()) && constant.getType() == int.class) {
                codes.add(constant.getInt(null));
            }
        }

        assertThat(documented).isEqualTo(codes);
    }

    /** The text of the {@code ## } section of docs/cli.md with this heading, up to the next one. */
    private static String section(String heading) throws IOException {
        String reference = Files.readString(repositoryRoot().resolve("docs/cli.md"), StandardCharsets.UTF_8);
        int start = reference.indexOf("\n## " + heading + "\n");
        assertThat(start).as("docs/cli.md has a section " + heading).isNotNegative();
        int end = reference.indexOf("\n## ", start + 1);
        return reference.substring(start, end < 0 ? reference.length() : end);
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
