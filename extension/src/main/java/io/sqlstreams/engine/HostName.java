package io.sqlstreams.engine;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The name of the host this process runs on, as the local resolver reports it. */
public final class HostName {
    private HostName() {
    }

    /** The local host's name; {@code unknown-host} when it cannot be resolved. */
    public static String current() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
