package io.sqlstreams.bench;

import io.opentelemetry.sdk.common.CompletableResultCode;

/** The common part of the exporters that only count: nothing is held back, so flush and shutdown have nothing to do. */
abstract class CountingExporter {

    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
