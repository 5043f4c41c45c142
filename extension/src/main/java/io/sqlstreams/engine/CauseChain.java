package io.sqlstreams.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A throwable and its causes, outermost first, each once. {@link Throwable#initCause} allows a cycle (A caused by
 * B caused by A), so a walk that follows {@code getCause()} until null could spin forever on what a handler threw.
 */
public final class CauseChain {
    private CauseChain() {
    }

    public static List<Throwable> of(Throwable thrown) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = thrown; cause != null && seen.add(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }
}
