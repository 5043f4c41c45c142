package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.engine.Engine;
import io.sqlstreams.engine.codec.OptionsDocument;

/**
 * Reads the deliverable messages of a range: this group's payload version, current compaction heads only.
 * Each delivery's options are resolved against the group's current declaration here, at claim time.
 */
final class RangeReader {
    private final Engine engine;
    private final RegisteredGroup group;
    private final int schemaVersion;

    RangeReader(Engine engine, RegisteredGroup group, int schemaVersion) {
        this.engine = engine;
        this.group = group;
        this.schemaVersion = schemaVersion;
    }

    List<Delivery> read(Connection connection, long low, long high, ConsumerConfig config) throws SQLException {
        List<Delivery> deliveries = new ArrayList<>();
        try (PreparedStatement read = connection.prepareStatement(engine.sql().forStream("read_range", group.streamId()))) {
            read.setLong(1, low);
            read.setLong(2, high);
            read.setInt(3, schemaVersion);
            read.setLong(4, group.groupId());
            read.setLong(5, group.groupId());
            try (ResultSet row = read.executeQuery()) {
                while (row.next()) {
                    long id = row.getLong(1);
                    long rank = row.getLong(4);
                    Long compactionRank = row.wasNull() ? null : rank;
                    deliveries.add(new Delivery(id, row.getString(2), row.getString(3), compactionRank,
                            row.getString(5), row.getTimestamp(7).toInstant(), resolve(id, row.getString(6), config), 1));
                }
            }
        }
        return deliveries;
    }

    /**
     * The options one delivery runs under. Stored values outside the group's bounds are clamped (SQL0032); a
     * stored document that cannot be read runs under the group's defaults.
     */
    MessageOptions resolve(long messageId, String storedJson, ConsumerConfig config) {
        MessageOptions stored;
        try {
            stored = OptionsDocument.fromJson(storedJson);
        } catch (InvalidConfigurationException unreadable) {
            engine.diagnostics().event(Code.SQL0032, "message " + messageId + " of " + group.describe()
                    + " has unreadable stored options; the group's defaults apply: " + unreadable.getMessage());
            stored = null;
        }
        MessageOptions resolved = config.resolve(stored);
        MessageOptions unclamped = MessageOptions.fill(stored, config.resolvedMessage());
        if (stored != null && (!java.util.Objects.equals(unclamped.timeout(), resolved.timeout())
                || !java.util.Objects.equals(unclamped.retry(), resolved.retry()))) {
            engine.diagnostics().event(Code.SQL0032, "stored message options outside the bounds of "
                    + group.describe() + " were clamped (message " + messageId + ")");
        }
        return resolved;
    }
}
