package io.sqlstreams.sample.run;

/** The PostgreSQL the sample runs on while the launcher runs. */
public interface SampleDatabase extends AutoCloseable {

    DatabaseCoordinates coordinates();

    /** One line for the user: which database this is and what happens to it on exit. */
    String describe();

    /** Stops the database when the launcher started it; leaves it alone otherwise. */
    @Override
    void close();
}
