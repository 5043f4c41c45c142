package io.sqlstreams.engine.consume;

import java.util.List;

/**
 * The answer to asking for several keys' leases under one token: each request's state, in request order, and how
 * many finished keys' leases were still there to give back.
 */
record KeyGrant(List<KeyGrant.KeyState> states, int released) {
    /** Why a key's lease was not granted, or that it was. */
    enum KeyState {
        ACQUIRED,
        /** an earlier message of the ordered key waits on the exception path: waiting in process is pointless */
        AFTER_EXCEPTION,
        /** the key is leased, or an earlier message of the ordered key is in another open range */
        BUSY
    }
}
