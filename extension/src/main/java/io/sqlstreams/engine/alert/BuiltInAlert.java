package io.sqlstreams.engine.alert;

import java.util.Arrays;
import java.util.Optional;

import io.sqlstreams.AlertOwner;
import io.sqlstreams.Code;

/**
 * The built-in alerts (digest §7.6), every one severity {@code warn}. An alert's name, detail and hint are its
 * code's title, meaning and action.
 */
public enum BuiltInAlert {
    PARTITION_COUNT(Code.SQL0094, AlertOwner.Kind.STREAM),
    COMPACTION_READ_COST(Code.SQL0095, AlertOwner.Kind.STREAM),
    WORKER_LIVENESS(Code.SQL0096, AlertOwner.Kind.STREAM),
    METRICS_COLLECTOR_PROGRESS(Code.SQL0101, AlertOwner.Kind.SYSTEM),
    FENCE_HELD(Code.SQL0162, AlertOwner.Kind.STREAM);

    public static final String SEVERITY = "warn";

    private final Code code;
    private final AlertOwner.Kind ownerKind;

    BuiltInAlert(Code code, AlertOwner.Kind ownerKind) {
        this.code = code;
        this.ownerKind = ownerKind;
    }

    public Code code() {
        return code;
    }

    public String alertName() {
        return code.title();
    }

    public AlertOwner.Kind ownerKind() {
        return ownerKind;
    }

    public static Optional<BuiltInAlert> named(String name) {
        return Arrays.stream(values()).filter(alert -> alert.alertName().equals(name)).findFirst();
    }
}
