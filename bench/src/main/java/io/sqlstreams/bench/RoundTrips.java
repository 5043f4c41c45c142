package io.sqlstreams.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import javax.sql.DataSource;

/**
 * The raw-JDBC floor of a pass that executes {@code statements} statements: as many round trips of a prepared
 * {@code SELECT 1}, no library, on one auto-commit connection borrowed from the harness's pool for the pass.
 *
 * @param dataSource the harness's pool
 * @param statements round trips per pass
 */
record RoundTrips(DataSource dataSource, long statements) {

    /** One repetition: a pass unmeasured, then {@code passes} timed. */
    Sample measure(int passes) throws Exception {
        pass();
        Map<Metric, Double> values = PassTimes.measure(passes, this::pass);
        values.put(Metric.STATEMENTS, (double) statements);
        return new Sample(values, Ledger.NOTHING_WRITTEN);
    }

    private void pass() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT 1")) {
            for (long i = 0; i < statements; i++) {
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next() || row.getInt(1) != 1) {
                        throw new IllegalStateException("SELECT 1 did not answer 1");
                    }
                }
            }
        }
    }
}
