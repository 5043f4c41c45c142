package io.sqlstreams.jakarta.beans;

import io.sqlstreams.ConsumerGroup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Observers with deployment problems: a payload without @SchemaVersion, and a second charge-cards observer. */
@ApplicationScoped
public class BrokenObservers {
    /** Lacks @SchemaVersion. */
    public record Unversioned(String text) {
    }

    void unversioned(@Observes @ConsumerGroup(stream = "audit", group = "archive") Unversioned event) {
    }

    void secondCharge(@Observes @ConsumerGroup(stream = "payments.requested", group = "charge-cards") Payment event) {
    }
}
