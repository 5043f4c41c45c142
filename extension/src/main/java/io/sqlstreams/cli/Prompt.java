package io.sqlstreams.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Where a command asks the operator to confirm what cannot be undone: the terminal the run was started from. A run
 * without one (piped, scripted) has no prompt, so such a command needs its {@code --yes}.
 */
final class Prompt {
    /** A run without a terminal. */
    static final Prompt NONE = new Prompt(null, null);

    private final BufferedReader answers;
    private final PrintWriter questions;

    /** Asks on {@code questions} and reads the answers from {@code answers}. */
    Prompt(BufferedReader answers, PrintWriter questions) {
        this.answers = answers;
        this.questions = questions;
    }

    /** The terminal's prompt; {@link #NONE} when there is no console (standard input or output redirected). */
    static Prompt of(Console console) {
        return console == null ? NONE : new Prompt(new BufferedReader(console.reader()), console.writer());
    }

    boolean available() {
        return answers != null;
    }

    /** The line typed after {@code question}, without surrounding blanks; empty at the end of input. */
    Optional<String> ask(String question) {
        questions.print(question);
        questions.flush();
        try {
            return Optional.ofNullable(answers.readLine()).map(String::strip);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }
}
