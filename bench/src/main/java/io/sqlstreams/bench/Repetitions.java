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
            samples.add(repetition(label, k, measurement));
        }
        return new Figure(label, samples);
    }

    /**
     * Two measurements to be held against each other, in alternating order (first, second; then second, first; …),
     * so a drift of the machine over the run weighs on both alike.
     */
    List<Figure> measurePaired(String firstLabel, Measurement first, String secondLabel, Measurement second)
            throws Exception {
        List<Sample> firstSamples = new ArrayList<>();
        List<Sample> secondSamples = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            if (k % 2 == 1) {
                firstSamples.add(repetition(firstLabel, k, first));
                secondSamples.add(repetition(secondLabel, k, second));
            } else {
                secondSamples.add(repetition(secondLabel, k, second));
                firstSamples.add(repetition(firstLabel, k, first));
            }
        }
        return List.of(new Figure(firstLabel, firstSamples), new Figure(secondLabel, secondSamples));
    }

    private Sample repetition(String label, int k, Measurement measurement) throws Exception {
        progress.note(label + " — repetition " + k + "/" + count);
        Sample sample = measurement.run();
        progress.note("  → " + sample.describe());
        return sample;
    }
}
