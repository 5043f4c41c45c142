package io.sqlstreams.bench;

import java.util.ArrayList;
import java.util.List;

/** Runs each measurement the configured number of times, reporting progress, and collects the figure. */
final class Repetitions {

    /** One repetition of a measurement. */
    @FunctionalInterface
    interface Measurement {
        Sample run() throws Exception;
    }

    private final int count;
    private final Progress progress;

    Repetitions(int count, Progress progress) {
        this.count = count;
        this.progress = progress;
    }

    Figure measure(String label, Measurement measurement) throws Exception {
        List<Sample> samples = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            progress.note(label + " — repetition " + k + "/" + count);
            Sample sample = measurement.run();
            progress.note("  → " + sample.describe());
            samples.add(sample);
        }
        return new Figure(label, samples);
    }
}
