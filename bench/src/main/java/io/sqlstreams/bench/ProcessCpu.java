package io.sqlstreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * CPU time of processes on this machine, read from {@code /proc/<pid>/stat} (user + system, in clock ticks): of every
 * process whose command name is {@code postgres} (a local server's postmaster, backends and background workers), or
 * of given processes. A process that exits between two readings takes its share with it, and one that starts
 * between them brings all of its own: differences of readings are close, not exact, for processes that come and go.
 */
final class ProcessCpu {
    private static final Path PROC = Path.of("/proc");
    /** USER_HZ: 100 on every Linux this runs on, unless {@code getconf} says otherwise. */
    static final long TICKS_PER_SECOND = ticksPerSecond();

    private ProcessCpu() {
    }

    /** Every {@code postgres} process's ticks, summed; empty when /proc cannot be read or shows none. */
    static OptionalLong postgres() {
        long sum = 0;
        int found = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                Stat stat = stat(entry);
                if (stat != null && stat.command().equals("postgres")) {
                    sum += stat.ticks();
                    found++;
                }
            }
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        return found == 0 ? OptionalLong.empty() : OptionalLong.of(sum);
    }

    /** The ticks of {@code pids} (whole processes, every thread), summed; a process that is gone counts 0. */
    static long of(Collection<Long> pids) {
        return pids.stream().map(pid -> stat(PROC.resolve(Long.toString(pid)))).filter(stat -> stat != null)
                .mapToLong(Stat::ticks).sum();
    }

    /** Ticks as microseconds. */
    static double micros(long ticks) {
        return ticks * 1e6 / TICKS_PER_SECOND;
    }

    private record Stat(String command, long ticks) {
    }

    /** {@code pid (comm) state …}: the name sits in parentheses, utime and stime are fields 14 and 15. */
    private static Stat stat(Path process) {
        try {
            String line = Files.readString(process.resolve("stat"), StandardCharsets.US_ASCII);
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String[] fields = line.substring(close + 2).split(" ");
            return new Stat(line.substring(open + 1, close), Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
        } catch (IOException | RuntimeException gone) {
            return null; // exited while we looked, or not ours to read
        }
    }

    private static long ticksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return getconf.waitFor(5, TimeUnit.SECONDS) && getconf.exitValue() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
