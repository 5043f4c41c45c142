package io.sqlstreams;

import java.util.List;

/** The alerts of one owner: the installation, a stream or a consumer group. No I/O until a verb is called. */
public interface AlertsHandle {

    /**
     * The newest recorded report of each alert of this owner, by name.
     *
     * @throws SqlStreamsException the owner's not-found error (SQL0005 for a stream, SQL0014 for a group)
     */
    List<Alert> list();

    /** One alert of this owner by name. No I/O until a verb is called. */
    AlertHandle alert(String name);
}
