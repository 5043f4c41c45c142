package io.sqlstreams.engine;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The name of the host this process runs on, as the local resolver reports it. Resolved once per process: the
 * lookup can wait on DNS, and every client and session asks for it.
 */
public final class HostName {
    private static final String NAME = resolve();

    private HostName() {
    }

    /** The local host's name; {@code unknown-host} when it cannot be resolved. */
    public static String current() {
        return NAME;
    }

    private static String resolve() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
