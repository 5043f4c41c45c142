package io.sqlstreams.jakarta.beans;

import io.sqlstreams.SchemaVersion;

/** A payment request; {@code behaviour} tells the test observer how to end its delivery. */
@SchemaVersion(1)
public record Payment(String order, String behaviour) {
}
