package io.sqlstreams.tck.liberty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;

import io.sqlstreams.tck.TransactionalObserverScenario;

/**
 * {@link TransactionalObserverScenario} on Open Liberty. The scenario's observer declares
 * {@code @Transactional(dontRollbackOn = Exception.class)}, as README advises: its planned failures then leave no FFDC
 * incident, and their charges are rolled back all the same (the scenario checks that).
 */
class TransactionalObserverLibertyIT extends TransactionalObserverScenario {
    @Override
    protected Path serverLog(String deployment) {
        return LibertyServer.messagesLog();
    }

    @AfterAll
    static void thePlannedFailuresLeftNoFfdcIncident() throws IOException {
        for (Path report : LibertyServer.ffdcReports()) {
            assertThat(Files.readString(report)).as("FFDC report %s", report.getFileName())
                    .doesNotContain("declined after its charge was written");
        }
    }
}
