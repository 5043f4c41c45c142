package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.sqlstreams.SqlStreams;

/**
 * Streams pre-filled for drains, one per message count, each filled the first time that count is asked for and
 * drained as often as wanted (every drain a fresh group); closing destroys them all.
 */
final class PrefilledStreams implements AutoCloseable {
    private final BenchContext context;
    private final SqlStreams admin;
    private final String kind;
    private final Map<Long, GroupDrain> drains = new TreeMap<>();
    private final List<BenchStream> streams = new ArrayList<>();
    private final List<String> fills = new ArrayList<>();

    /** @param kind names the streams: {@code bench.<kind>-<messages>.<n>} */
    PrefilledStreams(BenchContext context, SqlStreams admin, String kind) {
        this.context = context;
        this.admin = admin;
        this.kind = kind;
    }

    /** The drains of a stream holding {@code messages} messages, filling one first when there is none. */
    GroupDrain holding(long messages) throws Exception {
        GroupDrain drain = drains.get(messages);
        if (drain == null) {
            context.progress().note(String.format(Locale.ROOT, "pre-filling a stream with %,d messages", messages));
            BenchStream stream = BenchStream.register(admin, context.dataSource(), context.schema(),
                    kind + "-" + messages);
            streams.add(stream);
            LibraryPrefill.Filled filled = LibraryPrefill.fill(stream, messages);
            fills.add(String.format(Locale.ROOT, "%,d in %.1f s", messages, filled.seconds()));
            drain = GroupDrain.of(context, stream, filled);
            drains.put(messages, drain);
        }
        return drain;
    }

    /** Each pre-fill: messages and seconds, for the notes. */
    List<String> fills() {
        return List.copyOf(fills);
    }

    @Override
    public void close() {
        streams.forEach(BenchStream::close);
    }
}
