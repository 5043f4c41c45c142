package io.sqlstreams.bench;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import io.sqlstreams.BatchHandler;
import io.sqlstreams.BatchItem;
import io.sqlstreams.ConsumerInstance;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.MessageHandler;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.TransactionalHandler;

/**
 * How a realistic-shape handler writes its {@link WorkTable} row: in a transaction of its own, in the library's
 * transaction a message at a time, or a range's messages at once. Named on {@link ScaleConsumerMain}'s command line
 * by {@link #wireName()}.
 */
enum HandlerForm {
    /** A {@link MessageHandler}: the insert commits on a connection of the handler's own pool. */
    PLAIN {
        @Override
        ConsumerSession start(ConsumerInstance<BenchPayload> instance, Work work) {
            MessageHandler<BenchPayload> handler = payload -> work.current(meta -> work.table().insert(work.ownPool(),
                    meta, work.process()));
            return instance.start(handler, RealisticShape.CONSUME);
        }
    },
    /** A {@link TransactionalHandler}: the insert on the lent connection, committed with the range. */
    TRANSACTIONAL {
        @Override
        ConsumerSession start(ConsumerInstance<BenchPayload> instance, Work work) {
            TransactionalHandler<BenchPayload> handler = (payload, connection) -> work.current(meta -> work.table()
                    .insert(connection, meta, work.process()));
            return instance.start(handler, RealisticShape.CONSUME);
        }
    },
    /** A {@link BatchHandler}: every item's row in one JDBC batch on the lent connection, committed with the range. */
    BATCH {
        @Override
        ConsumerSession start(ConsumerInstance<BenchPayload> instance, Work work) {
            BatchHandler<BenchPayload> handler = (items, connection) -> {
                List<MessageMeta> metas = items.stream().map(BatchItem::meta).toList();
                work.table().insertAll(connection, metas, work.process());
                metas.forEach(meta -> work.log().record(meta.messageId()));
            };
            return instance.startBatches(handler, RealisticShape.CONSUME);
        }
    };

    /**
     * What a handler writes with.
     *
     * @param table   the group's work table
     * @param ownPool the connections of a {@link #PLAIN} handler
     * @param process the consumer process's name, written in every row
     * @param log     where each handled message id is recorded once its row is written
     */
    record Work(WorkTable table, DataSource ownPool, String process, HandledLog log) {

        /** Writes the current delivery's row with {@code write}, then records the delivery. */
        void current(Write write) throws SQLException {
            MessageMeta meta = MessageMeta.current();
            write.row(meta);
            log.record(meta.messageId());
        }
    }

    /** Writes one delivery's row. */
    @FunctionalInterface
    interface Write {
        void row(MessageMeta meta) throws SQLException;
    }

    /** Starts a session of {@code instance} with this form's handler ({@link RealisticShape#CONSUME}'s options). */
    abstract ConsumerSession start(ConsumerInstance<BenchPayload> instance, Work work);

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The form {@code fields[index]} names; {@link #PLAIN} when the line ends before it. */
    static HandlerForm at(String[] fields, int index) {
        if (index >= fields.length) {
            return PLAIN;
        }
        for (HandlerForm form : values()) {
            if (form.wireName().equals(fields[index])) {
                return form;
            }
        }
        throw new IllegalArgumentException("no handler form " + fields[index] + "; one of plain, transactional,"
                + " batch");
    }
}
