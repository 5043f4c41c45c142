package io.sqlstreams.cli;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertHandle;
import io.sqlstreams.AlertsHandle;
import io.sqlstreams.Quoting;
import jakarta.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sqlstreams alert …}: the reports the alert checks recorded on {@code __system.alerts}, and evaluations now. */
@Command(name = "alert", description = "Read the alerts recorded for the system, a stream or a consumer group.",
        subcommands = {AlertCommands.ListAlerts.class, AlertCommands.Latest.class, AlertCommands.History.class,
                AlertCommands.Status.class})
final class AlertCommands {
    private AlertCommands() {
    }

    @Command(name = "list", description = "The newest report of each alert of the owner, ordered by name.")
    static final class ListAlerts extends ListCommand<Alert> {
        @Mixin
        private AlertOwnerOptions owner;

        ListAlerts() {
            super(AlertFormats.REPORT);
        }

        @Override
        List<Alert> rows(Installation installation) {
            return owner.read(this, installation, AlertsHandle::list);
        }
    }

    /** The {@code <alert>} argument and the owner options of the verbs about one alert (a mixin). */
    static final class OneAlert extends AlertOwnerOptions {
        @Parameters(index = "0", paramLabel = "<alert>", description = "such as partition_count")
        private String name;

        <T> T readAlert(InstallationCommand command, Installation installation, Function<AlertHandle, T> verb) {
            return read(command, installation, alerts -> verb.apply(alerts.alert(name)));
        }

        /** The error line when no report of the alert is retained. */
        String noReport() {
            return "no report of alert " + Quoting.quote(name) + " is retained for " + describe();
        }
    }

    @Command(name = "latest", description = "The alert's newest report. Exit 1 when none is retained.")
    static final class Latest extends GetCommand<Alert> {
        @Mixin
        private OneAlert alert;

        Latest() {
            super(AlertFormats.REPORT);
        }

        @Override
        Optional<Alert> row(Installation installation) {
            return alert.readAlert(this, installation, AlertHandle::latest);
        }

        @Override
        String absence() {
            return alert.noReport();
        }
    }

    @Command(name = "history", description = "The alert's retained reports, newest first. Exit 1 when none is"
            + " retained.")
    static final class History extends InstallationCommand {
        @Mixin
        private OneAlert alert;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "10",
                description = "at most this many reports (default ${DEFAULT-VALUE})")
        private int limit;

        @Override
        int run(Output output, Installation installation) {
            List<Alert> reports = alert.readAlert(this, installation, handle -> handle.history(limit));
            if (reports.isEmpty() && !output.json()) {
                err().println(alert.noReport());
            } else {
                output.rows(AlertFormats.REPORT, reports);
            }
            return reports.isEmpty() ? ExitCodes.ABSENT : ExitCodes.OK;
        }
    }

    @Command(name = "status", description = "Evaluate the alert's current evidence under the declared policy,"
            + " recording nothing: healthy, pending, active or insufficient, and why.")
    static final class Status extends InstallationCommand {
        @Mixin
        private OneAlert alert;

        @Override
        int run(Output output, Installation installation) {
            JsonObject snapshot = AlertFormats.snapshot(alert.readAlert(this, installation, AlertHandle::snapshot));
            output.object(snapshot);
            return ExitCodes.OK;
        }
    }
}
