package io.sqlstreams.engine.query;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import io.sqlstreams.GroupFence;

/** An open producer as the statements over claim.sql's {@code open_producer_activity} return it. */
final class FenceHolderRow {

    private FenceHolderRow() {
    }

    /** The row's {@code pid}, {@code xid}, {@code open_millis} and {@code state}; pid and open time may be null. */
    static GroupFence.Holder read(ResultSet row) throws SQLException {
        Long openMillis = row.getObject("open_millis", Long.class);
        return new GroupFence.Holder(row.getObject("pid", Integer.class), row.getString("xid"),
                openMillis == null ? null : Duration.ofMillis(openMillis), row.getString("state"));
    }
}
