package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/** Library clients over the harness's pool, one per consume session, like separate processes would have. */
final class ConsumeClients {

    private ConsumeClients() {
    }

    static SqlStreams one(BenchContext context) {
        return SqlStreams.create(context.dataSource(),
                ClientConfig.builder().schema(context.schema()).allowDestroy(true).build());
    }

    static List<SqlStreams> create(BenchContext context, int count) {
        List<SqlStreams> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            clients.add(one(context));
        }
        return List.copyOf(clients);
    }
}
