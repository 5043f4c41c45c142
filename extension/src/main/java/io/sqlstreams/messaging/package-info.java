/**
 * Streams as MicroProfile Reactive Messaging channels, without CDI: {@link io.sqlstreams.messaging.IncomingChannel}
 * publishes a consumer group's deliveries as messages whose acknowledgement is the delivery's outcome, and
 * {@link io.sqlstreams.messaging.OutgoingChannel} produces the messages it receives. Only the specification's API
 * (Reactive Messaging 3.0 and Reactive Streams) is used, as Open Liberty exports nothing else to applications.
 */
package io.sqlstreams.messaging;
