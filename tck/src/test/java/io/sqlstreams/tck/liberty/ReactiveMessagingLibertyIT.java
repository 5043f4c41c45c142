package io.sqlstreams.tck.liberty;

import io.sqlstreams.tck.ReactiveMessagingScenario;

/** {@link ReactiveMessagingScenario} on Open Liberty's mpReactiveMessaging-3.0. */
class ReactiveMessagingLibertyIT extends ReactiveMessagingScenario {
}
