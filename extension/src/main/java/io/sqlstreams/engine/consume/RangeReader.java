package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.codec.OptionsDocument;
import io.sqlstreams.engine.query.ClaimQueries;

/**
 * Reads the deliverable messages of a range: this group's payload version, current compaction heads only.
 * Each delivery's options are resolved against the group's current declaration here, at claim time.
 */
final class RangeReader {
    private final Engine engine;
    private final RegisteredGroup group;
    private final int schemaVersion;
    private final ClaimQueries queries;

    RangeReader(Engine engine, RegisteredGroup group, int schemaVersion) {
        this.engine = engine;
        this.group = group;
        this.schemaVersion = schemaVersion;
        this.queries = new ClaimQueries(engine.sql());
    }

    List<Delivery> read(Connection connection, long low, long high, ConsumerConfig config) throws SQLException {
        return queries.readRange(connection, group.ids(), schemaVersion, low, high).stream()
                .map(row -> new Delivery(row.id(), row.routingKey(), row.messageKey(), row.compactionRank(),
                        row.payloadJson(), row.createdAt(), resolve(row.id(), row.optionsJson(), config), 1, 0,
                        Delivery.RunStart.UNRECORDED))
                .toList();
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
