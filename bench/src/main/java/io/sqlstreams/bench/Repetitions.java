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
        return measureRotating(List.of(firstLabel, secondLabel), List.of(first, second));
    }

    /**
     * Measurements to be held against each other, each repetition running all of them with the starting one rotated
     * (a, b, c; then b, c, a; then c, a, b; …), so a drift of the machine over the run weighs on all of them alike.
     *
     * @return a figure per measurement, in the order of {@code labels}
     */
    List<Figure> measureRotating(List<String> labels, List<Measurement> measurements) throws Exception {
        int size = labels.size();
        List<List<Sample>> samples = new ArrayList<>();
        labels.forEach(label -> samples.add(new ArrayList<>()));
        for (int k = 1; k <= count; k++) {
            for (int step = 0; step < size; step++) {
                int m = (k - 1 + step) % size;
                samples.get(m).add(repetition(labels.get(m), k, measurements.get(m)));
            }
        }
        List<Figure> figures = new ArrayList<>();
        for (int m = 0; m < size; m++) {
            figures.add(new Figure(labels.get(m), samples.get(m)));
        }
        return figures;
    }

    private Sample repetition(String label, int k, Measurement measurement) throws Exception {
        progress.note(label + " — repetition " + k + "/" + count);
        Sample sample = measurement.run();
        progress.note("  → " + sample.describe());
        return sample;
    }
}
