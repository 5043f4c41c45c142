package io.sqlstreams.engine;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** Who declared a row, for the {@code declared_by} audit columns: {@code hostname:pid:<random>}, display only. */
public final class Declarer {
    private Declarer() {
    }

    public static String identify() {
        return hostname() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
