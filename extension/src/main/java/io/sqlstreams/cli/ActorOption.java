package io.sqlstreams.cli;

import picocli.CommandLine.Option;

/** {@code --actor NAME}: who an operator action's audit row names (a mixin). */
final class ActorOption {
    @Option(names = "--actor", paramLabel = "NAME", defaultValue = "${sys:user.name}",
            description = "who the audit trail records as acting (default: the operating-system user,"
                    + " ${DEFAULT-VALUE})")
    private String name;

    String name() {
        return name;
    }
}
