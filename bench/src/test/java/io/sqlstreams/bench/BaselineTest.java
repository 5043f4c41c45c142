package io.sqlstreams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.sqlstreams.testing.TestPostgres;

/** Baselines (a) and (b) at smoke sizes: they measure something, and their ledgers balance. */
class BaselineTest {
    private static final Duration MEASUREMENT = BenchOptions.SMOKE_MEASUREMENT;

    private static BenchServer server;
    private static ThrowawaySchema schema;

    @BeforeAll
    static void start() throws Exception {
        server = BenchServer.start(TestPostgres.configuredUrl());
        schema = ThrowawaySchema.create(server.dataSource());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            schema.close();
        } finally {
            server.close();
        }
    }

    @Test
    void batchedInsertsCommitEveryRowTheyCount() throws Exception {
        InsertBaseline inserts = new InsertBaseline(server.dataSource(), schema.name(), MEASUREMENT);
        for (InsertBaseline.Shape shape : new InsertBaseline.Shape[] {InsertBaseline.BATCH_100,
                InsertBaseline.BATCH_1000, InsertBaseline.BATCH_1000_TWO_THREADS}) {
            Sample sample = inserts.measureOnce(shape);

            assertThat(sample.values().get(Metric.THROUGHPUT)).as(shape.label()).isPositive();
            Ledger ledger = sample.ledger();
            assertThat(ledger.passed()).as("%s: %s", shape.label(), ledger).isTrue();
            assertThat(ledger.stored()).as(shape.label()).isEqualTo(ledger.acknowledged())
                    .isGreaterThanOrEqualTo((long) shape.batchSize() * shape.threads());
        }
    }

    @Test
    void theCursorReaderConsumesEveryProducedRow() throws Exception {
        Sample sample = new CursorBaseline(server.dataSource(), schema.name(), MEASUREMENT).measureOnce();

        assertThat(sample.values().get(Metric.THROUGHPUT)).isPositive();
        assertThat(sample.values().get(Metric.CONSUMED)).isPositive();
        Ledger ledger = sample.ledger();
        assertThat(ledger.passed()).as(ledger.toString()).isTrue();
        assertThat(ledger.delivered()).as("consumed = produced").isEqualTo(ledger.acknowledged());
        assertThat(ledger.undelivered()).as("rows above the cursor at the end").isZero();
        assertThat(ledger.duplicates()).isZero();
    }
}
