package io.sqlstreams.jakarta.beans;

import java.util.List;

import io.sqlstreams.ConsumerGroup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Observers with deployment problems: a payload without @SchemaVersion, a second charge-cards observer, and one
 * that observes a parameterized type instead of a payload class.
 */
@ApplicationScoped
public class BrokenObservers {
    /** Lacks @SchemaVersion. */
    public record Unversioned(String text) {
    }

    void unversioned(@Observes @ConsumerGroup(stream = "audit", group = "archive") Unversioned event) {
    }

    void secondCharge(@Observes @ConsumerGroup(stream = "payments.requested", group = "charge-cards") Payment event) {
    }

    void parameterized(@Observes @ConsumerGroup(stream = "audit", group = "lists") List<String> event) {
    }
}
