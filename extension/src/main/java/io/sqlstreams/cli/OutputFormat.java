package io.sqlstreams.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/** The two shapes of everything the tool prints on standard output. */
enum OutputFormat {
    /** Aligned tables for people. */
    TEXT,
    /** One JSON document per run, for scripts. */
    JSON;

    private static final String JSON_NAME = "json";

    /** The names the shell completion offers, as the docs spell them (any case is accepted). */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(format -> format.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    /**
     * Whether the command line asks for JSON ({@code -o json}, {@code -ojson}, {@code -o=json}, {@code --output json},
     * {@code --output=json}), read from the words themselves: a run that failed to parse has no parsed options.
     */
    static boolean requestedJson(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            boolean flagWithValueNext = (arg.equals("-o") || arg.equals("--output")) && i + 1 < args.length;
            String value = flagWithValueNext ? args[i + 1]
                    : arg.startsWith("--output=") ? arg.substring("--output=".length())
                    : arg.startsWith("-o") && !arg.startsWith("--") ? arg.substring(2).replaceFirst("^=", "") : "";
            if (value.toLowerCase(Locale.ROOT).equals(JSON_NAME)) {
                return true;
            }
        }
        return false;
    }
}
