package io.sqlstreams.engine.schedule;

import io.sqlstreams.SchedulerHandle;
import io.sqlstreams.SchedulerInstance;

/** A schedule as registered by this client. */
record EngineSchedulerInstance<T>(SchedulerHandle handle, String stream, Class<T> payloadType)
        implements SchedulerInstance<T> {
    @Override
    public String name() {
        return handle.name();
    }
}
