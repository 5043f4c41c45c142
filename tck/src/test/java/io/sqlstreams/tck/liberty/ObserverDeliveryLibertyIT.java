package io.sqlstreams.tck.liberty;

import java.util.regex.Pattern;

import io.sqlstreams.tck.ObserverDeliveryScenario;

/** {@link ObserverDeliveryScenario} on Open Liberty. */
class ObserverDeliveryLibertyIT extends ObserverDeliveryScenario {

    /** Liberty runs every managed executor's tasks on its one global thread pool. */
    @Override
    protected Pattern managedExecutorThread() {
        return Pattern.compile("Default Executor-thread-\\d+");
    }
}
