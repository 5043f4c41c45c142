package io.sqlstreams.engine.telemetry;

/** One handler run as telemetry sees it: current on the handler's thread while it runs, then its end. */
public interface ProcessTrace {
    ProcessTrace NONE = new ProcessTrace() {
        @Override
        public Current makeCurrent() {
            return Current.NOTHING;
        }

        @Override
        public void ended(RunEnd end, Throwable failure) {
        }
    };

    /** Makes the run's span the current one on this thread until the returned handle closes. */
    Current makeCurrent();

    /**
     * The run ended as {@code end}; {@code failure} is what the handler threw, or null.
     */
    void ended(RunEnd end, Throwable failure);

    /** The span being current on the handler's thread. */
    interface Current extends AutoCloseable {
        Current NOTHING = () -> { };

        @Override
        void close();
    }
}
