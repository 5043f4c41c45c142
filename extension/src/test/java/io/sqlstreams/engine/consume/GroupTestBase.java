package io.sqlstreams.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;

import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.ConsumerSession;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;

/**
 * What the consumer group tests share, besides an {@link EngineTestBase}'s database and client: a
 * {@link GroupProbe} on the class's schema, registered streams and groups, and started sessions.
 */
abstract class GroupTestBase extends EngineTestBase {
    /** How long a test waits for a session to start, or for what it is waiting on to happen. */
    protected static final Duration WAIT = Duration.ofSeconds(20);

    protected GroupProbe probe;

    @BeforeEach
    void openProbe() {
        this.probe = new GroupProbe(database);
    }

    /** A handle on stream {@code name}, registered with its defaults. */
    protected StreamHandle<Numbered> registeredStream(String name) {
        StreamHandle<Numbered> stream = client.stream(name, Numbered.class);
        stream.register();
        return stream;
    }

    /** A handle on group {@code group} of a freshly registered stream {@code stream}, declared with {@code config}. */
    protected ConsumerHandle<Numbered> registeredGroup(String stream, String group, ConsumerConfig config) {
        ConsumerHandle<Numbered> handle = registeredStream(stream).consumer(group);
        handle.register(config);
        return handle;
    }

    /** The same, the group declared with its defaults. */
    protected ConsumerHandle<Numbered> registeredGroup(String stream, String group) {
        return registeredGroup(stream, group, ConsumerConfig.defaults());
    }

    /** The id of a registered group. */
    protected static long groupId(ConsumerHandle<?> handle) {
        return handle.get().orElseThrow().id();
    }

    /** {@code session}, once it has started; fails the test, closing the session, when it does not start. */
    protected static ConsumerSession started(ConsumerSession session) throws InterruptedException {
        try {
            assertThat(session.awaitStarted(WAIT)).as("the session started").isTrue();
            return session;
        } catch (InterruptedException | RuntimeException | Error failure) {
            session.close();
            throw failure;
        }
    }
}
