package io.sqlstreams.cli;

import java.util.function.Function;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.Quoting;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.engine.Names;
import picocli.CommandLine.Parameters;

/** The {@code <stream> <group>} arguments that name one consumer group (a picocli mixin). */
final class GroupArguments {
    @Parameters(index = "0", paramLabel = "<stream>")
    private String stream;

    @Parameters(index = "1", paramLabel = "<group>")
    private String group;

    String stream() {
        return stream;
    }

    String group() {
        return group;
    }

    /** The group's handle; its verbs check both names (SQL0109) except {@code get}, which answers "absent". */
    ConsumerHandle<Object> handle(SqlStreams client) {
        return client.stream(stream, Object.class).consumer(group);
    }

    /** {@code verb} applied to the group's handle, through the run's client. */
    <T> T apply(Installation installation, Function<ConsumerHandle<Object>, T> verb) {
        return verb.apply(handle(installation.client()));
    }

    /** The group as error lines and questions name it: {@code consumer group "charge-cards" on stream "payments"}. */
    String describe() {
        return "consumer group " + Quoting.quote(group) + " on stream " + Quoting.quote(stream);
    }

    /** SQL0109 for an invalid stream or group name. */
    void checkNames() {
        Names.resource("stream", stream);
        Names.resource("consumer group", group);
    }
}
