package io.sqlstreams.engine.consume;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
        Map<String, MessageOptions> settled = new HashMap<>();
        return queries.readRange(connection, group.ids(), schemaVersion, low, high).stream()
                .map(row -> new Delivery(row.id(), row.routingKey(), row.messageKey(), row.compactionRank(),
                        row.payloadJson(), row.headersJson(), row.createdAt(), resolve(row.id(), row.optionsJson(), config, settled), 1,
                        0, Delivery.RunRecords.UNRECORDED))
                .toList();
    }

    /**
     * The options one delivery runs under. Stored values outside the group's bounds are clamped (SQL0032); a
     * stored document that cannot be read runs under the group's defaults.
     */
    MessageOptions resolve(long messageId, String storedJson, ConsumerConfig config) {
        return resolve(messageId, storedJson, config, new HashMap<>());
    }

    /** {@link #resolve}, remembering in {@code settled} the documents that resolve without a problem. */
    private MessageOptions resolve(long messageId, String storedJson, ConsumerConfig config,
                                   Map<String, MessageOptions> settled) {
        String key = storedJson == null ? "" : storedJson;
        MessageOptions known = settled.get(key);
        if (known != null) {
            return known;
        }
        Resolution resolution = resolution(storedJson, config);
        if (resolution.problem() == null) {
            settled.put(key, resolution.options());
        } else {
            engine.diagnostics().event(Code.SQL0032, "message " + messageId + " of " + group.describe() + " "
                    + resolution.problem());
        }
        return resolution.options();
    }

    private static Resolution resolution(String storedJson, ConsumerConfig config) {
        MessageOptions stored;
        try {
            stored = OptionsDocument.fromJson(storedJson);
        } catch (InvalidConfigurationException unreadable) {
            return new Resolution(config.resolve(null), "has unreadable stored options; the group's defaults apply: "
                    + unreadable.getMessage());
        }
        MessageOptions resolved = config.resolve(stored);
        MessageOptions unclamped = MessageOptions.fill(stored, config.resolvedMessage());
        if (stored != null && (!Objects.equals(unclamped.timeout(), resolved.timeout())
                || !Objects.equals(unclamped.retry(), resolved.retry()))) {
            return new Resolution(resolved, "has stored options outside the bounds of the group; they were clamped");
        }
        return new Resolution(resolved, null);
    }

    /** Resolved options, and what SQL0032 says about the stored document when they are not simply its own. */
    private record Resolution(MessageOptions options, String problem) {
    }
}
