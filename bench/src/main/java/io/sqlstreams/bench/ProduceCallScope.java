package io.sqlstreams.bench;

import java.util.List;
import java.util.function.Supplier;

import io.sqlstreams.ProduceResult;

/** What the application sets up around each produce call (its own request span), the call run inside it. */
@FunctionalInterface
interface ProduceCallScope {
    ProduceCallScope NONE = Supplier::get;

    List<ProduceResult> around(Supplier<List<ProduceResult>> call);
}
