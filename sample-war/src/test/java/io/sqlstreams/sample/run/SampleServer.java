package io.sqlstreams.sample.run;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** A server running the sample's WAR as a child process of the launcher. */
interface SampleServer {

    /** The server's name for a human, such as {@code Open Liberty}. */
    String name();

    /** Where the application is served. */
    URI baseUri();

    /** The server's log, where to look when something went wrong. */
    Path log();

    boolean isAlive();

    /** The process's exit code once it has exited. */
    int exitValue();

    /** Blocks until the server exits, by itself or through {@link #stop()}; its exit code. */
    int awaitExit() throws InterruptedException;

    /** Stops the server gracefully, forcibly if it has not exited within a minute. */
    void stop();

    /** What the server reported as an incident (an unexpected exception with its stack trace) since it started. */
    List<String> incidents();
}
