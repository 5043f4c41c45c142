package io.sqlstreams.jakarta.beans;

import io.sqlstreams.Producer;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.StreamName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Injection points that do not name their payload class (SQL0135): a raw Producer and a wildcard StreamHandle. */
@ApplicationScoped
public class UntypedInjections {
    @Inject
    @StreamName("audit")
    @SuppressWarnings("rawtypes")
    Producer raw;

    @Inject
    @StreamName("audit")
    StreamHandle<?> wildcard;
}
