package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;
import java.util.function.Supplier;

/**
 * Runs the payments sample on Open Liberty until Ctrl-C: {@code mvn -pl sample-war -am -DskipTests -Prun package}.
 * The database is an embedded PostgreSQL, or the one named by {@value #JDBC_URL}.
 */
public final class RunSample {
    static final String JDBC_URL = "SQLSTREAMS_JDBC_URL";

    private RunSample() {
    }

    public static void main(String[] args) throws InterruptedException {
        SampleRun run = new SampleRun(ServerLayout.load(), Redirect.INHERIT);
        Runtime.getRuntime().addShutdownHook(new Thread(run::close, "stop-sample"));
        try {
            run.start(database(System.getenv(JDBC_URL)));
            Instructions.print(run.baseUri(), run.database(), System.out);
            int exitCode = run.awaitExit();
            if (!run.isClosed()) {
                throw new IllegalStateException("Liberty stopped by itself (exit code " + exitCode + "); see "
                        + run.layout().messagesLog());
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
