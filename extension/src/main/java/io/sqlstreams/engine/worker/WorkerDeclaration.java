package io.sqlstreams.engine.worker;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import io.sqlstreams.Code;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.sql.Sql;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * Declares one worker row of an owner (a stream or a consumer group) with its configuration document.
 * Newest declaration wins: a new worker is inserted, a differing document replaces the stored one (logged as
 * SQL0059 naming {@code old -> new}) and keeps the worker's target so a suspension stays, an identical one
 * writes nothing. Every insert or replace appends a snapshot to {@code worker_config_log}.
 */
public final class WorkerDeclaration {
    /** Whose worker: each owner kind has its own lookup and insert statements. */
    public enum Owner {
        STREAM("stream_worker_metadata", "insert_stream_worker"),
        CONSUMER_GROUP("group_worker_metadata", "insert_group_worker");

        private final String lookup;
        private final String insert;

        Owner(String lookup, String insert) {
            this.lookup = lookup;
            this.insert = insert;
        }
    }

    private final Sql sql;
    private final Diagnostics diagnostics;
    private final String declarer;

    public WorkerDeclaration(Sql sql, Diagnostics diagnostics, String declarer) {
        this.sql = sql;
        this.diagnostics = diagnostics;
        this.declarer = declarer;
    }

    /**
     * @param subject   how the owner reads in the SQL0059 line, for example {@code consumer group "x" on stream "y"}
     * @param newTarget the target a new worker starts with (stream workers only; groups' are unbounded)
     */
    public void declare(Connection connection, Owner owner, long ownerId, String subject, String worker,
                        JsonObject metadata, int newTarget) throws SQLException {
        Long workerId = null;
        JsonObject stored = null;
        try (PreparedStatement query = connection.prepareStatement(sql.get(owner.lookup))) {
            query.setLong(1, ownerId);
            query.setString(2, worker);
            try (ResultSet row = query.executeQuery()) {
                if (row.next()) {
                    workerId = row.getLong(1);
                    stored = Json.createReader(new StringReader(row.getString(2))).readObject();
                }
            }
        }
        if (workerId == null) {
            workerId = insert(connection, owner, ownerId, worker, metadata, newTarget);
        } else if (!stored.equals(metadata)) {
            try (PreparedStatement update = connection.prepareStatement(sql.get("update_worker_metadata"))) {
                update.setString(1, metadata.toString());
                update.setLong(2, workerId);
                update.executeUpdate();
            }
            diagnostics.event(Code.SQL0059, "worker " + worker + " of " + subject
                    + " config replaced by a differing declaration: metadata " + stored + " -> " + metadata);
        } else {
            return;
        }
        try (PreparedStatement log = connection.prepareStatement(sql.get("log_worker_config"))) {
            log.setString(1, declarer);
            log.setLong(2, workerId);
            log.executeUpdate();
        }
    }

    private long insert(Connection connection, Owner owner, long ownerId, String worker, JsonObject metadata,
                        int target) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql.get(owner.insert))) {
            insert.setLong(1, ownerId);
            insert.setString(2, worker);
            insert.setString(3, metadata.toString());
            if (owner == Owner.STREAM) {
                insert.setInt(4, target);
            }
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
