package io.sqlstreams.cli;

import io.sqlstreams.StreamAlertConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code system register} flags of one stream alert's policy, named after the alert:
 * {@code --partition-count-threshold}, {@code --partition-count-schedule}, {@code --partition-count-pending},
 * {@code --partition-count-maximum-gap} and {@code --partition-count-disable-pending}. Picocli cannot prefix a
 * mixin's option names, so the options are added to the command's model and read back from it by name.
 */
final class StreamAlertFlags {
    static final StreamAlertFlags PARTITION_COUNT = new StreamAlertFlags("partition-count",
            "partition_count (SQL0094): a stream's message log has at least this many partitions (default: half the"
                    + " lock ceiling PostgreSQL reports)");
    static final StreamAlertFlags COMPACTION_READ_COST = new StreamAlertFlags("compaction-read-cost",
            "compaction_read_cost (SQL0095): a compacted stream has at least this many partitions (default 10000)");
    static final StreamAlertFlags WORKER_LIVENESS = new StreamAlertFlags("worker-liveness",
            "worker_liveness (SQL0096): at least this many workers of a stream and its groups have no live instance"
                    + " (default 1)");
    static final StreamAlertFlags FENCE_HELD = new StreamAlertFlags("fence-held",
            "fence_held (SQL0162): a transaction that produced into a stream and holds back a fresh claim of one of"
                    + " its groups has been open for at least this many seconds (default 10)");

    private final String prefix;
    private final String holdsWhen;

    private StreamAlertFlags(String alert, String holdsWhen) {
        this.prefix = "--" + alert + "-";
        this.holdsWhen = holdsWhen;
    }

    void addTo(CommandSpec command) {
        command.addOption(text("threshold", "N", holdsWhen));
        command.addOption(text("schedule", "<schedule>",
                "how often its check runs: @every <duration> (default @every 1m)"));
        command.addOption(text("pending", "<duration>",
                "how long its condition must hold across samples before it is active (default 2m)"));
        command.addOption(text("maximum-gap", "<duration>",
                "the widest gap between its samples that still counts as continuous (default 2m)"));
        command.addOption(OptionSpec.builder(prefix + "disable-pending").arity("0").type(boolean.class)
                .description("its first unhealthy sample makes it active at once").build());
    }

    /** The policy the run's flags declare; SQL0108 naming the flag for a value that does not parse. */
    StreamAlertConfig read(CommandSpec command) {
        return new StreamAlertConfig(value(command, "schedule"),
                FlagValues.wholeNumber(prefix + "threshold", value(command, "threshold")),
                FlagValues.duration(prefix + "pending", value(command, "pending")),
                FlagValues.duration(prefix + "maximum-gap", value(command, "maximum-gap")),
                Boolean.TRUE.equals(command.findOption(prefix + "disable-pending").getValue()));
    }

    private OptionSpec text(String name, String label, String description) {
        return OptionSpec.builder(prefix + name).paramLabel(label).type(String.class).description(description)
                .build();
    }

    private String value(CommandSpec command, String name) {
        return command.findOption(prefix + name).getValue();
    }
}
