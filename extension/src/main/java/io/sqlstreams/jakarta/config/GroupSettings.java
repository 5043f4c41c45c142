package io.sqlstreams.jakarta.config;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;

/**
 * Everything configuration says about one deployed group, already validated.
 *
 * @param address          the stream and group
 * @param declaration      the group declaration to register (sparse: unset fields stay null)
 * @param options          this box's session options
 * @param enabled          whether this box runs a session for the group at all
 * @param executorJndiName the {@code ManagedExecutorService} the group's handlers run on
 */
public record GroupSettings(GroupAddress address, ConsumerConfig declaration, ConsumeOptions options,
                            boolean enabled, String executorJndiName) {

    /** The server's default managed executor, which every Jakarta EE server provides. */
    public static final String DEFAULT_EXECUTOR_JNDI_NAME = "java:comp/DefaultManagedExecutorService";
}
