package io.sqlstreams.jakarta.beans;

import io.sqlstreams.Producer;
import io.sqlstreams.StreamName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Injection points with deployment problems: an invalid stream name, and a payload without @SchemaVersion. */
@ApplicationScoped
public class BrokenInjections {
    @Inject
    @StreamName("Payments Requested!")
    Producer<Payment> badName;

    @Inject
    @StreamName("audit")
    Producer<BrokenObservers.Unversioned> unversioned;
}
