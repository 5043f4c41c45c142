package io.sqlstreams.tck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionEvaluationListener;
import org.awaitility.core.EvaluatedCondition;
import org.awaitility.core.TimeoutEvent;

/**
 * The thread dumps of the server JVMs under test ({@code jcmd <pid> Thread.print} of the running JDK), printed into
 * the test output when a wait for a server runs out: a process that does not exit, or a condition that is not met
 * by its deadline. The suite's process handling registers the processes it starts; an Open Liberty server started by
 * its Arquillian adapter is found by the pid file the server writes.
 */
public final class ThreadDumps {
    private static final long JCMD_TIMEOUT_SECONDS = 30;
    private static final Map<Long, String> SERVERS = new LinkedHashMap<>();
    private static boolean listening;

    private ThreadDumps() {
    }

    /** Dumps {@code process}'s threads, as {@code name}, whenever a wait runs out, until it is forgotten. */
    public static synchronized void register(String name, ProcessHandle process) {
        SERVERS.put(process.pid(), name);
    }

    public static synchronized void forget(ProcessHandle process) {
        SERVERS.remove(process.pid());
    }

    /** From now on, every Awaitility condition that times out prints the servers' thread dumps first. */
    public static synchronized void onAwaitTimeout() {
        if (listening) {
            return;
        }
        listening = true;
        Awaitility.setDefaultConditionEvaluationListener(new ConditionEvaluationListener<Object>() {
            @Override
            public void conditionEvaluated(EvaluatedCondition<Object> condition) {
            }

            @Override
            public void onTimeout(TimeoutEvent timeout) {
                print("the wait for \"" + timeout.getDescription() + "\" timed out after "
                        + timeout.getElapsedTimeInMS() + " ms");
            }
        });
    }

    /** Prints every known server's thread dump to the test output, saying {@code why}. */
    public static void print(String why) {
        Map<Long, String> servers;
        synchronized (ThreadDumps.class) {
            servers = new LinkedHashMap<>(SERVERS);
        }
        libertyPid().ifPresent(pid -> servers.putIfAbsent(pid, "Open Liberty"));
        if (servers.isEmpty()) {
            System.err.println(why + "; no server process to dump the threads of");
        }
        servers.forEach((pid, name) -> print(why, pid, name));
    }

    /** Prints the thread dump of process {@code pid} ({@code name}) to the test output and answers it. */
    public static String print(String why, long pid, String name) {
        String dump = of(pid);
        System.err.println("==== " + why + ": threads of " + name + " (pid " + pid + ") ====");
        System.err.println(dump);
        System.err.println("==== end of the threads of " + name + " (pid " + pid + ") ====");
        return dump;
    }

    /** The thread dump of process {@code pid}, or why there is none. */
    public static String of(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Path output = Files.createTempFile("threads-" + pid + "-", ".txt");
            try {
                Process printing = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
                if (!printing.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    printing.destroyForcibly();
                }
                return Files.readString(output, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return "none: jcmd failed: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none: interrupted while jcmd ran";
        }
    }

    /** The pid of the Open Liberty server the liberty profile runs, from its pid file, if it is running. */
    private static Optional<Long> libertyPid() {
        String userDir = System.getProperty("sqlstreams.tck.liberty.user.dir");
        String server = System.getProperty("sqlstreams.tck.liberty.server");
        if (userDir == null || server == null) {
            return Optional.empty();
        }
        Path pidFile = Path.of(userDir, "servers", ".pid", server + ".pid");
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | NumberFormatException absent) {
            return Optional.empty();
        }
    }
}
