package io.sqlstreams.bench;

/**
 * Tells a reader that a producer has committed since it last looked, or has finished, so a reader that found
 * nothing new waits for the next commit instead of polling.
 */
final class CommitSignal {
    private long commits;
    private boolean finished;

    synchronized void committed() {
        commits++;
        notifyAll();
    }

    synchronized void finish() {
        finished = true;
        notifyAll();
    }

    synchronized long commits() {
        return commits;
    }

    synchronized boolean finished() {
        return finished;
    }

    /** Returns once a commit beyond {@code seen} happened or the producer finished. */
    synchronized void awaitCommitAfter(long seen) throws InterruptedException {
        while (commits == seen && !finished) {
            wait();
        }
    }
}
