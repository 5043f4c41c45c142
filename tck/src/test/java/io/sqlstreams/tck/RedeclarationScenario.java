package io.sqlstreams.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import io.sqlstreams.ConsumerHandle;
import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.deployment.ChargeCards;
import io.sqlstreams.tck.deployment.Payment;

/**
 * The group's declaration ships with the application: redeploying it with another retry budget in its
 * MicroProfile Config replaces the stored declaration, and the server log says so with SQL0059.
 */
public abstract class RedeclarationScenario extends TckScenario {
    private static final String FIRST = "redeclaration-first";
    private static final String SECOND = "redeclaration-second";
    private static final String SCHEMA = "tck_redeclaration";
    private static final String RETRIES = "sqlstreams.groups.\"" + ChargeCards.GROUP + "\".message.retry.max-retries";

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = FIRST, managed = false, testable = false)
    public static WebArchive first() {
        return ApplicationArchive.of(FIRST, ChargeCards.class.getPackage(),
                Map.of("sqlstreams.schema", SCHEMA, RETRIES, "3"));
    }

    @Deployment(name = SECOND, managed = false, testable = false)
    public static WebArchive second() {
        return ApplicationArchive.of(SECOND, ChargeCards.class.getPackage(),
                Map.of("sqlstreams.schema", SCHEMA, RETRIES, "5"));
    }

    /**
     * The log where the library's diagnostic lines go while {@code deployment} runs: the server's own log, or the
     * deployment's where the server runs one process per deployment.
     */
    protected abstract Path serverLog(String deployment);

    @Test
    void redeployingWithAnotherRetryBudgetReplacesTheStoredDeclaration() throws SQLException {
        StreamHandle<Payment> stream = paymentsWithJournal(SCHEMA);
        ConsumerHandle<Payment> group = stream.consumer(ChargeCards.GROUP);

        deployer.deploy(FIRST);
        assertThat(storedRetries(group)).isEqualTo(3);
        deployer.undeploy(FIRST);

        deployer.deploy(SECOND);
        try {
            assertThat(storedRetries(group)).isEqualTo(5);
            await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readAllLines(serverLog(SECOND),
                    StandardCharsets.UTF_8)).anySatisfy(line -> assertThat(line).contains("SQL0059")
                    .contains("consumer group \"" + ChargeCards.GROUP + "\"").contains("message.retry.max_retries 3 -> 5")));
        } finally {
            deployer.undeploy(SECOND);
        }
    }

    private static int storedRetries(ConsumerHandle<Payment> group) {
        return group.inspect().declaredConfig().message().retry().maxRetries();
    }
}
