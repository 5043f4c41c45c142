package io.sqlstreams.sample.run;

import java.lang.ProcessBuilder.Redirect;

/** {@link SampleScenario} on Open Liberty. */
class SampleOnLibertyIT extends SampleScenario {

    @Override
    SampleRun newRun() {
        return SampleRun.onLiberty(Redirect.DISCARD);
    }

    @Override
    String placeOrderSpanName() {
        return "POST /api/orders";
    }
}
