package io.sqlstreams.engine.sql;

/**
 * A connection whose transaction the library commits itself (the one lent to a transactional handler): what is
 * registered here runs once that transaction has committed, and is dropped when it rolls back.
 */
public interface AfterCommit {
    void afterCommit(Runnable action);
}
