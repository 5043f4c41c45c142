package io.sqlstreams.messaging;

/**
 * Where an incoming channel stands: waiting for its subscriber (or for its session to begin), running, or stopped,
 * with the failure that stopped it, if one did.
 */
public record ChannelStatus(Stage stage, Throwable failure) {
    public enum Stage { WAITING, RUNNING, STOPPED }

    static final ChannelStatus WAITING = new ChannelStatus(Stage.WAITING, null);
    static final ChannelStatus RUNNING = new ChannelStatus(Stage.RUNNING, null);
}
