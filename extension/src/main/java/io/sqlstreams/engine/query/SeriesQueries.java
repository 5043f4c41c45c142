package io.sqlstreams.engine.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

import io.sqlstreams.MetricFilter;
import io.sqlstreams.engine.sql.BoundStatement;
import io.sqlstreams.engine.sql.Sql;

/** Reads of the metric series retained on {@code __system.metrics}: each series' compaction head. */
public final class SeriesQueries {
    /** One page of series heads, and how many series matched in all. */
    public record SeriesPage(List<KeyQueries.KeyedMessage> heads, long seriesTotal) {
    }

    private record Row(KeyQueries.KeyedMessage head, long total) {
    }

    private final Sql sql;

    public SeriesQueries(Sql sql) {
        this.sql = sql;
    }

    /**
     * The heads of the series {@code filter} selects on stream {@code streamId}, ordered by metric name and then
     * by series key; built-in series are those whose name starts with {@code reservedPrefix}.
     */
    public SeriesPage retainedSeries(Connection connection, long streamId, MetricFilter filter,
                                     String reservedPrefix) throws SQLException {
        try (BoundStatement query = BoundStatement.prepare(connection,
                sql.streamStatement("retained_series", streamId))) {
            query.bind("metric_name", filter.name());
            if (filter.origin() == MetricFilter.Origin.ANY) {
                query.bindNull("built_in", Types.BOOLEAN);
            } else {
                query.bind("built_in", filter.origin() == MetricFilter.Origin.BUILT_IN);
            }
            query.bind("reserved_prefix", reservedPrefix)
                    .bindArray("attribute_keys", "text", filter.attributes().keySet().toArray())
                    .bindArray("attribute_values", "text", filter.attributes().values().toArray())
                    .bind("row_limit", filter.seriesLimit());
            List<Row> rows = query.queryList(row -> new Row(KeyQueries.message(row), row.getLong("series_total")));
            return new SeriesPage(rows.stream().map(Row::head).toList(), rows.isEmpty() ? 0 : rows.get(0).total());
        }
    }
}
