package io.sqlstreams;

import java.util.List;

/**
 * One page of dead letters, newest message first.
 *
 * @param letters      the dead letters of this page
 * @param nextBeforeId the id to pass as {@link PageRequest#beforeId()} for the next page; null on the last page
 */
public record DeadLetterPage(List<DeadLetter> letters, Long nextBeforeId) {
    public DeadLetterPage {
        letters = List.copyOf(letters);
    }
}
