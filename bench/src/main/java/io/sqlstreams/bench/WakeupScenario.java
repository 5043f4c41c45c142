package io.sqlstreams.bench;

import java.util.List;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/**
 * What wake-up on produce costs producers: {@code produce} from 16 callers with the client's wake-up on (every
 * commit announced, coalesced) and off ({@code disableWakeup}), alternating which runs first, each on fresh
 * streams, the "on" figure held against the "off" one of the same run. BENCHMARKS.md allows wake-up at most 5 % of
 * the produce ceiling.
 */
final class WakeupScenario implements Scenario {
    static final int CALLERS = 16;

    static String label(boolean wakeup) {
        return "produce, " + CALLERS + " callers, wake-up " + (wakeup ? "on" : "off") + " (msg/s)";
    }

    @Override
    public String name() {
        return "wakeup";
    }

    @Override
    public String title() {
        return "Wake-up on produce: the produce ceiling with it on and off";
    }

    @Override
    public ScenarioResult run(BenchContext context) throws Exception {
        SqlStreams on = client(context, false);
        SqlStreams off = client(context, true);
        ProduceMeasurement withWakeup = new ProduceMeasurement(on, context.dataSource(), context.schema(),
                context.measurement());
        ProduceMeasurement withoutWakeup = new ProduceMeasurement(off, context.dataSource(), context.schema(),
                context.measurement());
        Repetitions repetitions = context.repetitions();
        List<Figure> figures = repetitions.measurePaired(label(false), () -> withoutWakeup.produce(CALLERS),
                label(true), () -> withWakeup.produce(CALLERS));
        Figure offFigure = figures.get(0);
        Figure onFigure = figures.get(1);
        Comparison onVersusOff = new Comparison(onFigure, offFigure, "wake-up on against off, target ≥ 95 %");
        Comparison offVersusRaw = new Comparison(offFigure, context.baselines().insert100(), "");
        return new ScenarioResult(List.of(offFigure, onFigure), List.of(offVersusRaw, onVersusOff));
    }

    private static SqlStreams client(BenchContext context, boolean disableWakeup) {
        return SqlStreams.create(context.dataSource(), ClientConfig.builder().schema(context.schema())
                .allowDestroy(true).disableWakeup(disableWakeup).build());
    }
}
