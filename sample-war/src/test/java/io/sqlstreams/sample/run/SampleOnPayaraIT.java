package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;

/** {@link SampleScenario} on Payara Micro: {@code mvn -pl sample-war -Ppayara verify}, in a private network namespace. */
class SampleOnPayaraIT extends SampleScenario {

    @Override
    SampleRun newRun() {
        return SampleRun.onPayara(Redirect.DISCARD);
    }

    /** Micro's JAX-RS span joins {@code @ApplicationPath("api")} and {@code @Path("orders")} without a slash. */
    @Override
    String placeOrderSpanName() {
        return "POST /apiorders";
    }
}
