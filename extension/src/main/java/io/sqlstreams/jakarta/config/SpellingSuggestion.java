package io.sqlstreams.jakarta.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** The known name a mistyped one was most likely meant to be. */
final class SpellingSuggestion {
    private static final int MOST_EDITS = 2;

    private SpellingSuggestion() {
    }

    /** The candidate within two single-character edits of {@code typed}, the closest first; empty if none is. */
    static Optional<String> closest(String typed, Collection<String> candidates) {
        return candidates.stream()
                .filter(candidate -> editDistance(typed, candidate) <= MOST_EDITS)
                .min(Comparator.comparingInt(candidate -> editDistance(typed, candidate)));
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
