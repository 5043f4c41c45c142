package io.sqlstreams.bench;

/**
 * A promise a scenario checks outright rather than measures: how often it was broken, and what it means.
 *
 * @param name    what is counted, as the report names it (e.g. {@code lost})
 * @param count   how often it happened
 * @param counted true for a figure that is reported but never fails the run (duplicates after kills)
 * @param meaning one sentence: what the count is and why it must be zero
 */
record Invariant(String name, long count, boolean counted, String meaning) {

    /** A promise that holds only when {@code count} is zero. */
    static Invariant zero(String name, long count, String meaning) {
        return new Invariant(name, count, false, meaning);
    }

    /** A figure reported beside the promises, never failed. */
    static Invariant counted(String name, long count, String meaning) {
        return new Invariant(name, count, true, meaning);
    }

    boolean passed() {
        return counted || count == 0;
    }

    /** {@code PASS}, {@code FAIL} or, for a counted figure, {@code counted}. */
    String verdict() {
        return counted ? "counted" : count == 0 ? "PASS" : "FAIL";
    }
}
