package io.sqlstreams.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it. */
public final class SettableClock extends Clock {
    private final AtomicReference<Instant> now;

    public SettableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** A clock at an arbitrary fixed instant. */
    public static SettableClock standing() {
        return new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a settable clock stays in UTC");
    }
}
