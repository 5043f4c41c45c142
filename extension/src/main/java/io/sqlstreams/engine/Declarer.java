package io.sqlstreams.engine;

import java.util.UUID;

/** Who declared a row, for the {@code declared_by} audit columns: {@code hostname:pid:<random>}, display only. */
public final class Declarer {
    private Declarer() {
    }

    public static String identify() {
        return HostName.current() + ":" + ProcessHandle.current().pid() + ":"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
