package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;
import java.util.function.Supplier;

/**
 * Runs the payments sample until Ctrl-C: on Open Liberty with {@code mvn -pl sample-war -am -DskipTests -Prun
 * package}, on Payara Micro with {@code -Prun,payara} (the argument {@code payara}). The database is an embedded
 * PostgreSQL, or the one named by {@value #JDBC_URL}. With {@value #TRACE} set to {@code 1}, the sample's spans are
 * printed below the banner as the server exports them.
 */
public final class RunSample {
    static final String JDBC_URL = "SQLSTREAMS_JDBC_URL";
    static final String TRACE = "SQLSTREAMS_SAMPLE_TRACE";

    private RunSample() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean onPayara = args.length > 0 && args[0].equals("payara");
        // the server's console output only repeats its log: the user's console keeps the banner readable
        SampleRun run = onPayara ? SampleRun.onPayara(Redirect.DISCARD) : SampleRun.onLiberty(Redirect.DISCARD);
        boolean traced = "1".equals(System.getenv(TRACE));
        if (traced) {
            run.traceTo(span -> System.out.println(span.line()));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(run::close, "stop-sample"));
        try {
            System.out.println(run.describeStart());
            run.start(database(System.getenv(JDBC_URL)));
            Instructions.print(run.server(), run.database(), System.out);
            if (traced) {
                System.out.println(TRACE + "=1: every span the sample exports is printed here, one line each "
                        + "(kind, name, trace, span and parent ids, attributes).");
            }
            int exitCode = run.awaitExit();
            if (!run.isClosed()) {
                throw new IllegalStateException(run.server().name() + " stopped by itself (exit code " + exitCode
                        + "); see " + run.server().log());
            }
        } catch (RuntimeException | InterruptedException e) {
            // after Ctrl-C while starting, the hook is stopping what started: not a failure
            if (!run.isClosed()) {
                throw e;
            }
        } finally {
            run.close();
        }
    }

    private static Supplier<SampleDatabase> database(String jdbcUrl) {
        if (jdbcUrl == null || jdbcUrl.isBlank()) {
            return EmbeddedDatabase::start;
        }
        return () -> ExternalDatabase.at(jdbcUrl.strip());
    }
}
