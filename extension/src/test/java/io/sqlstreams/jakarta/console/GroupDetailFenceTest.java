package io.sqlstreams.jakarta.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.engine.EngineTestBase;
import io.sqlstreams.engine.consume.ConsumeFixtures.Numbered;
import io.sqlstreams.engine.consume.HeldFence;
import io.sqlstreams.testing.PostgresTest;
import jakarta.json.JsonObject;

/** The console's group page names the group's fence as {@code stream health} does: held, and by which producer. */
@PostgresTest
class GroupDetailFenceTest extends EngineTestBase {

    @Test
    void theGroupDetailCarriesTheFenceLineWhileAProducerHoldsItAndNotHeldAfter() throws Exception {
        ConsumerHandle<Numbered> group = client.stream("console.fenced", Numbered.class).consumer("console.g");
        try (HeldFence held = HeldFence.hold(client, database.dataSource(), "console.fenced", "console.g")) {
            JsonObject fence = detail(group).getJsonObject("fence");

            assertThat(fence.getString("consumer")).isEqualTo("console.g");
            assertThat(fence.getBoolean("held")).isTrue();
            assertThat(fence.getString("summary")).matches("held for [0-9]+ s by pid " + held.pid()
                    + " \\(xid [0-9]+, idle in transaction\\)");
            assertThat(fence.getJsonObject("holder").getInt("pid")).isEqualTo(held.pid());

            held.commit();
        }
        JsonObject released = detail(group).getJsonObject("fence");
        assertThat(released.getBoolean("held")).isFalse();
        assertThat(released.getString("summary")).isEqualTo("not held");
        assertThat(released.isNull("holder")).isTrue();
    }

    private static JsonObject detail(ConsumerHandle<Numbered> group) {
        return ConsoleJson.groupDetail(group.inspect(), List.of(), List.of(), group.fence());
    }
}
