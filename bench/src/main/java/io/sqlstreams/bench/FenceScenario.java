package io.sqlstreams.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.SqlStreams;

/**
 * What the per-stream fence means for a consumer's latency, each figure against the same measurement without the
 * disturbance in the same run, in rotating order:
 * <ul>
 * <li>pickup after idle ({@link LatencyScenario#pickups}, the default claimPollRate) with no other transaction open,
 * and while an unrelated transaction that holds a transaction id stays open: in the measured database, in another
 * database of the server, prepared and left behind;</li>
 * <li>commit → handler entry of a plain group at {@link #RATE} msg/s ({@link LatencyScenario#atRate}) alone, and
 * while a {@link TransactionalNeighbour} on another stream keeps {@link #RANGE_WORK} range transactions open.</li>
 * </ul>
 */
final class FenceScenario implements Scenario {
    static final Duration POLL_RATE = ConsumeOptions.DEFAULT_CLAIM_POLL_RATE;
    static final int RATE = 100;
    static final Duration RANGE_WORK = Duration.ofMillis(500);
    static final List<HorizonHolder.Place> UNRELATED = List.of(HorizonHolder.Place.SAME_DATABASE,
            HorizonHolder.Place.OTHER_DATABASE, HorizonHolder.Place.PREPARED);
    static final Duration DEFAULT_PHASE = Duration.ofSeconds(20);
    static final Duration SMOKE_PHASE = Duration.ofSeconds(2);
    static final int DEFAULT_PICKUPS = 20;
    static final int SMOKE_PICKUPS = 2;
    static final String ALONE_PICKUP_LABEL = "pickup after idle, no other transaction open (ms)";
    static final String ALONE_RATE_LABEL = String.format(Locale.ROOT, "commit → handler entry at %d msg/s, alone"
            + " (handled msg/s; ms)", RATE);
    static final String NEIGHBOUR_RATE_LABEL = String.format(Locale.ROOT, "commit → handler entry at %d msg/s while"
            + " a transactional group of another stream holds %d ms ranges (handled msg/s; ms)", RATE,
            RANGE_WORK.toMillis());

    static String pickupLabel(HorizonHolder.Place place) {
        return "pickup after idle while " + place.description() + " is open (ms)";
    }

    @Override
    public String name() {
        return "fence";
    }

    @Override
    public String title() {
        return "The per-stream fence: pickup and commit → handler while other transactions stay open";
    }

    @Override
    public boolean measuresBaselines() {
        return false;
    }

    @Override
    public String withoutBaselinesBecause() {
        return "each figure is held against the same measurement without the open transactions in this run";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        Duration phase = options.stepLength().orElse(context.smoke() ? SMOKE_PHASE : DEFAULT_PHASE);
        int pickups = options.pickups().orElse(context.smoke() ? SMOKE_PICKUPS : DEFAULT_PICKUPS);
        SqlStreams client = ConsumeClients.one(context);
        SqlStreams producing = ConsumeClients.one(context);
        List<Figure> figures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "claimPollRate %d ms (the default). Pickups: %d per repetition, produced"
                + " through a second client. Each holder is a REPEATABLE READ transaction that ran SELECT"
                + " txid_current() on a connection of its own, opened before the repetition and rolled back after it."
                + " Rates: %d s each, each repetition on a fresh stream and group. The neighbour's batch handler"
                + " inserts one effect row per message on the lent connection, then runs pg_sleep for %d ms before"
                + " the range commits; its stream is fed %d msg/s.", POLL_RATE.toMillis(), pickups,
                phase.toSeconds(), RANGE_WORK.toMillis(), TransactionalNeighbour.RATE));

        List<String> labels = new ArrayList<>(List.of(ALONE_PICKUP_LABEL));
        List<Repetitions.Measurement> measurements = new ArrayList<>();
        List<String> pickupDetails = new ArrayList<>();
        measurements.add(() -> LatencyScenario.pickups(context, client, producing, pickups, POLL_RATE,
                pickupDetails));
        for (HorizonHolder.Place place : UNRELATED) {
            labels.add(pickupLabel(place));
            measurements.add(() -> {
                try (HorizonHolder holder = HorizonHolder.open(context.server(), HorizonHolder.Kind.XID, place,
                        null)) {
                    pickupDetails.add(place.flag() + " holder xid " + holder.xid());
                    return LatencyScenario.pickups(context, client, producing, pickups, POLL_RATE, pickupDetails);
                }
            });
        }
        figures.addAll(context.repetitions().measureRotating(labels, measurements));
        notes.add("Pickups: " + String.join("; ", pickupDetails));

        List<String> rateDetails = new ArrayList<>();
        figures.addAll(context.repetitions().measurePaired(
                ALONE_RATE_LABEL, () -> LatencyScenario.atRate(context, client, RATE, phase,
                        LatencyScenario.consume(POLL_RATE), rateDetails),
                NEIGHBOUR_RATE_LABEL, () -> {
                    try (TransactionalNeighbour neighbour = TransactionalNeighbour.start(context, client,
                            RANGE_WORK)) {
                        Sample sample = LatencyScenario.atRate(context, client, RATE, phase,
                                LatencyScenario.consume(POLL_RATE), rateDetails);
                        rateDetails.add(neighbour.describe());
                        return sample;
                    }
                }));
        notes.add("Rates: " + String.join("; ", rateDetails));
        notes.add("Targets (issue 44): pickup after idle p50 ≤ 10 ms while an unrelated transaction is open;"
                + " commit → handler p99 ≤ 50 ms at 100 msg/s beside the transactional neighbour.");
        return new ScenarioResult(figures, List.of(), notes);
    }
}
