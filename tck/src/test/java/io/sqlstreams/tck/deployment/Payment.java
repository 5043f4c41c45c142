package io.sqlstreams.tck.deployment;

import io.sqlstreams.SchemaVersion;

/** The payload of the deployments' stream. */
@SchemaVersion(1)
public record Payment(String order) {
    public static final String STREAM = "payments.requested";
}
