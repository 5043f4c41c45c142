package io.sqlstreams.tck.payara;

import java.util.regex.Pattern;

import io.sqlstreams.tck.ObserverDeliveryScenario;

/** {@link ObserverDeliveryScenario} on Payara Micro. */
class ObserverDeliveryPayaraIT extends ObserverDeliveryScenario {

    /**
     * Payara names each managed executor's threads after its JNDI name: these are the handler threads of the
     * executor the server's MicroProfile Config names as the groups' default (postboot.txt).
     */
    @Override
    protected Pattern managedExecutorThread() {
        return Pattern.compile("concurrent/sqlstreams-handlers-managedThreadFactory-Thread-\\d+");
    }
}
