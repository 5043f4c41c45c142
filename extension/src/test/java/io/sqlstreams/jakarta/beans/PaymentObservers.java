package io.sqlstreams.jakarta.beans;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.MessageMeta;
import io.sqlstreams.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** The charge-cards group's observer: records every run, then ends it as the payload's behaviour says. */
@ApplicationScoped
public class PaymentObservers {
    /** One run: the payload, its meta and the thread it ran on. */
    public record Run(Payment payment, MessageMeta meta, String thread) {
    }

    public static final List<Run> RUNS = new CopyOnWriteArrayList<>();

    void charge(@Observes @ConsumerGroup(stream = "payments.requested", group = "charge-cards") Payment payment,
                MessageMeta meta) {
        RUNS.add(new Run(payment, meta, Thread.currentThread().getName()));
        switch (payment.behaviour()) {
            case "terminal" -> throw Outcome.terminal("card declined");
            case "delay" -> {
                if (meta.attempt() == 1) {
                    throw Outcome.delay(Duration.ofMillis(100));
                }
            }
            case "fail-once" -> {
                if (meta.attempt() == 1) {
                    throw new IllegalStateException("gateway timeout");
                }
            }
            default -> { }
        }
    }
}
