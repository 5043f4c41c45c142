package io.sqlstreams.cli;

import java.util.function.BiFunction;

import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.DeadLettersHandle;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.PageRequest;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code consumer dead …}: a consumer group's dead letters, selected by the filter flags; read them, count them,
 * group them by error, redrive or discard them.
 */
@Command(name = "dead", description = "Read, redrive or discard a consumer group's dead letters.",
        subcommands = {DeadLetterCommands.ListLetters.class, DeadLetterCommands.Count.class,
                DeadLetterCommands.Errors.class, DeadLetterCommands.Redrive.class, DeadLetterCommands.Discard.class})
final class DeadLetterCommands {
    private DeadLetterCommands() {
    }

    /** A verb on the dead letters of {@code <stream> <group>} that the filter flags select. */
    abstract static class FilteredVerb extends InstallationCommand {
        @Mixin
        private GroupArguments names;

        @Mixin
        private DeadLetterFilterFlags flags;

        GroupArguments names() {
            return names;
        }

        /** {@code verb} applied to the group's dead letters and the filter, read before the client is opened. */
        <T> T apply(Installation installation, BiFunction<DeadLettersHandle, DeadLetterFilter, T> verb) {
            DeadLetterFilter filter = flags.filter();
            return names.apply(installation, group -> verb.apply(group.deadLetters(), filter));
        }
    }

    @Command(name = "list", description = "List the selected dead letters, newest message first: id, message key,"
            + " runs, when it went dead and its last error (JSON adds its payload and more).")
    static final class ListLetters extends FilteredVerb {
        @Mixin
        private ListingLimit limit;

        @Option(names = "--before-id", paramLabel = "N",
                description = "only messages with an id below N: the next page after one that ended at N")
        private Long beforeId;

        @Option(names = "--payload", description = "add each payload to the table")
        private boolean payload;

        @Override
        int run(Output output, Installation installation) {
            DeadLetterPage page = apply(installation, (letters, filter) -> letters.list(filter,
                    new PageRequest(limit.value(), beforeId)));
            RowFormat<DeadLetter> format = OperatorFormats.letters(payload);
            JsonValue next = page.nextBeforeId() == null ? JsonValue.NULL : Json.createValue(page.nextBeforeId());
            if (output.json()) {
                output.json(Json.createObjectBuilder().add("letters", format.array(page.letters()))
                        .add("next_before_id", next).build());
                return ExitCodes.OK;
            }
            output.table(format.table(page.letters()));
            if (page.nextBeforeId() != null) {
                output.line("");
                output.line("next page: --before-id " + page.nextBeforeId());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "count", description = "Count the selected dead letters: what a redrive or discard with the"
            + " same flags would change now.")
    static final class Count extends FilteredVerb {
        @Override
        int run(Output output, Installation installation) {
            long count = apply(installation, DeadLettersHandle::count);
            if (output.json()) {
                output.json(Json.createObjectBuilder().add("count", count).build());
            } else {
                output.line(Long.toString(count));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "errors", description = "Group the selected dead letters by last error, largest group first,"
            + " with the newest message of each.")
    static final class Errors extends FilteredVerb {
        @Mixin
        private ListingLimit limit;

        @Override
        int run(Output output, Installation installation) {
            output.rows(OperatorFormats.ERRORS, apply(installation,
                    (letters, filter) -> letters.errors(filter, limit.value())));
            return ExitCodes.OK;
        }
    }

    /**
     * Redrive or discard: with {@code --dry-run} only the count; on a terminal without {@code --yes} the count and
     * a question; else the action, as the audit trail recorded it.
     */
    abstract static class Resolve extends FilteredVerb {
        /** What the question asks to be typed. */
        static final String CONFIRMATION = "yes";

        @Option(names = "--dry-run", description = "print how many dead letters would change, and change nothing")
        private boolean dryRun;

        @Option(names = {"-y", "--yes"}, description = "change them without asking")
        private boolean yes;

        @Mixin
        private ActorOption actor;

        private final String verb;
        private final String participle;
        private final Change change;

        /** The library verb a subcommand runs. */
        interface Change {
            OperatorAction apply(DeadLettersHandle letters, DeadLetterFilter filter, String actor);
        }

        Resolve(String verb, String participle, Change change) {
            this.verb = verb;
            this.participle = participle;
            this.change = change;
        }

        @Override
        int run(Output output, Installation installation) {
            Prompt prompt = dryRun || yes ? Prompt.NONE : confirmation(output, verb);
            return apply(installation, (letters, filter) -> {
                if (dryRun) {
                    printDryRun(output, letters.count(filter));
                    return ExitCodes.OK;
                }
                if (!yes) {
                    long count = letters.count(filter);
                    if (count == 0) {
                        output.line("no dead letter of " + names().describe() + " matches: nothing to " + verb);
                        return ExitCodes.OK;
                    }
                    if (prompt.ask(verb + " " + count + " dead letter(s) of " + names().describe() + "? Type "
                            + CONFIRMATION + " to confirm: ").filter(CONFIRMATION::equals).isEmpty()) {
                        err().println("the dead letters of " + names().describe() + " were not " + participle
                                + ": " + CONFIRMATION + " was not typed");
                        return ExitCodes.DECLINED;
                    }
                }
                output.row(OperatorFormats.ACTION, change.apply(letters, filter, actor.name()));
                return ExitCodes.OK;
            });
        }

        private void printDryRun(Output output, long count) {
            if (output.json()) {
                output.json(Json.createObjectBuilder().add("dry_run", true).add("kind", verb).add("count", count)
                        .build());
            } else {
                output.line("dry run: " + count + " dead letter(s) of " + names().describe() + " would be "
                        + participle + "; nothing changed");
            }
        }
    }

    @Command(name = "redrive", description = "Run the selected dead letters again at once, each with a fresh"
            + " retry budget. Asks first unless --yes, which a run without a terminal or with --output json needs.")
    static final class Redrive extends Resolve {
        Redrive() {
            super("redrive", "redriven", DeadLettersHandle::redrive);
        }
    }

    @Command(name = "discard", description = "Resolve the selected dead letters without running them; they stay,"
            + " as discarded, until retention removes their messages. Asks first unless --yes, which a run without"
            + " a terminal or with --output json needs.")
    static final class Discard extends Resolve {
        Discard() {
            super("discard", "discarded", DeadLettersHandle::discard);
        }
    }
}
