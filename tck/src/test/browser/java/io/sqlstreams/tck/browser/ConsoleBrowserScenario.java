package io.sqlstreams.tck.browser;

import static io.sqlstreams.tck.ConsoleApplication.GROUP_PATH;
import static io.sqlstreams.tck.ConsoleApplication.OPERATOR;
import static io.sqlstreams.tck.ConsoleApplication.PASSWORD;
import static io.sqlstreams.tck.ConsoleApplication.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.List;

import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sqlstreams.StreamHandle;
import io.sqlstreams.tck.ConsoleApplication;
import io.sqlstreams.tck.ConsoleEndpoint;
import io.sqlstreams.tck.TckScenario;
import io.sqlstreams.tck.deployment.Payment;
import io.sqlstreams.tck.deployment.console.DeclineOnceCards;
import io.sqlstreams.testing.OptionalTool;
import io.sqlstreams.testing.RequiresTools;

/**
 * The operator console in a real browser (headless Chromium), clicked through as its users would: nobody without a
 * role gets a page; an operator finds a paused group with a backlog and dead letters on the overview, opens it and a
 * dead letter, redrives that one after the dry run's confirmation, resumes the group and watches the backlog drain
 * and the dead count fall; a viewer sees the group without any action and is refused the redrive the page's own
 * POST asks for. Each page is saved as a screenshot (see {@link Screenshots}).
 */
@RequiresTools({OptionalTool.CHROMIUM, OptionalTool.CHROMEDRIVER})
public abstract class ConsoleBrowserScenario extends TckScenario {
    private static final String APPLICATION = "console-browser";
    private static final String SCHEMA = "tck_console_browser";
    private static final String GROUP = Payment.STREAM + "/" + DeclineOnceCards.GROUP;
    private static final String OVERVIEW_ROW = "#groups tr[data-group='" + GROUP + "'] ";
    /** The overview's fifth column: exception rows ready to run, where a redriven letter waits. */
    private static final String OVERVIEW_READY = OVERVIEW_ROW + "td:nth-child(5)";
    private static final int DECLINED = 3;
    private static final int BACKLOG = 4;

    @ArquillianResource
    private Deployer deployer;
    private StreamHandle<Payment> stream;

    @Deployment(name = APPLICATION, managed = false, testable = false)
    public static WebArchive application() {
        return ConsoleApplication.archive(APPLICATION, SCHEMA);
    }

    @BeforeEach
    void deploy() throws SQLException {
        stream = paymentsWithJournal(SCHEMA);
        deployer.deploy(APPLICATION);
    }

    @AfterEach
    void undeploy() {
        deployer.undeploy(APPLICATION);
    }

    /** One story, so that Payara Micro starts one process for it. */
    @Test
    void anOperatorSettlesAPausedGroupAndAViewerOnlyReads() throws Exception {
        Screenshots screenshots = Screenshots.fresh();
        nobodyWithoutARoleGetsAPage(screenshots);
        long redriven = pausedGroupWithDeadLettersAndABacklog().get(0);
        anOperatorRedrivesADeadLetterAndResumesTheGroup(screenshots, redriven);
        aViewerSeesNoActionAndIsRefusedARedrive(screenshots);
    }

    private void nobodyWithoutARoleGetsAPage(Screenshots screenshots) {
        try (ConsoleBrowser nobody = ConsoleBrowser.anonymous(server(), APPLICATION, screenshots)) {
            for (String file : List.of("", "api/overview")) {
                nobody.openFile(file);
                assertThat(nobody.status()).as("the status of /sqlstreams/%s without credentials", file)
                        .isIn(401, 403);
                assertThat(nobody.source()).as("what /sqlstreams/%s shows without credentials", file)
                        .doesNotContain("console.js", DeclineOnceCards.GROUP);
            }
            nobody.screenshot("anonymous");
        }
    }

    /** Dead letters, then a pause seen by the running session, then messages it leaves waiting; the dead ids. */
    private List<Long> pausedGroupWithDeadLettersAndABacklog() throws Exception {
        List<Long> declined = produce(stream, "declined", DECLINED);
        ConsoleEndpoint viewer = ConsoleEndpoint.as(server(), APPLICATION, VIEWER, PASSWORD);
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            JsonObject group = viewer.get(GROUP_PATH).json();
            return group.getJsonNumber("dead").longValue() == DECLINED && group.getJsonNumber("lag").longValue() == 0;
        });
        ConsoleEndpoint operator = ConsoleEndpoint.as(server(), APPLICATION, OPERATOR, PASSWORD);
        String csrf = operator.get("session").json().getString("csrf");
        assertThat(operator.post(GROUP_PATH + "/pause", csrf).status()).as("the operator's pause").isEqualTo(200);
        await().atMost(WAIT).ignoreExceptions().until(() -> health("ready").data("sqlstreams-ready")
                .getString(GROUP).startsWith("paused"));
        produce(stream, DeclineOnceCards.ACCEPTED, BACKLOG);
        return declined;
    }

    private void anOperatorRedrivesADeadLetterAndResumesTheGroup(Screenshots screenshots, long redriven) {
        try (ConsoleBrowser operator = ConsoleBrowser.as(server(), APPLICATION, OPERATOR, PASSWORD, screenshots)) {
            operator.openView("");
            operator.waitUntil("the overview shows the paused group with a lag of " + BACKLOG + " and " + DECLINED
                    + " dead letters", () -> overviewShows(operator, "paused", BACKLOG, DECLINED));
            assertThat(operator.text("#user")).isEqualTo("operator (operator)");
            operator.screenshot("overview");

            operator.click(OVERVIEW_ROW + "a.group-link");
            operator.waitUntil("the group page shows the paused group and its " + DECLINED + " dead letters",
                    () -> operator.text("#group-title").equals(Payment.STREAM + " / " + DeclineOnceCards.GROUP)
                            && operator.text("#lag").equals(Integer.toString(BACKLOG))
                            && operator.text("#dead-count").equals(Integer.toString(DECLINED))
                            && operator.text("#group-state").contains("paused by " + OPERATOR)
                            && operator.findAll("#letters tr[data-message-id]").size() == DECLINED);
            assertThat(operator.find("#pause").isEnabled()).as("pause offered to a paused group").isFalse();
            assertThat(operator.find("#resume").isEnabled()).as("resume offered to a paused group").isTrue();
            operator.screenshot("group");

            String letter = "#letters tr[data-message-id='" + redriven + "']";
            operator.click(letter + " td.number");
            operator.waitUntil("the dead letter " + redriven + " opens with its error and payload",
                    () -> operator.text(letter + " + tr.detail").contains("card declined for declined-0"));
            operator.screenshot("dead-letter");

            operator.click(letter + " input.select");
            operator.click("#redrive");
            operator.waitUntil("the dry run asks to confirm one dead letter",
                    () -> operator.find("#confirm").isDisplayed()
                            && operator.text("#confirm-text").equals("redrive 1 dead letter?"));
            assertThat(operator.text("#dead-count")).as("the dead count after the dry run")
                    .isEqualTo(Integer.toString(DECLINED));
            operator.screenshot("redrive-confirmation");

            operator.click("#confirm-yes");
            operator.waitUntil("the redrive is reported and the dead count falls by one",
                    () -> operator.text("#notice").equals("redriven 1 dead letter")
                            && operator.text("#dead-count").equals(Integer.toString(DECLINED - 1))
                            && operator.findAll(letter).isEmpty());
            operator.screenshot("redriven");

            operator.click("#resume");
            operator.waitUntil("the group page, refreshing by itself, shows the group running and its backlog drained",
                    () -> !operator.text("#group-state").contains("paused") && operator.text("#lag").equals("0")
                            && operator.find("#pause").isEnabled() && !operator.find("#resume").isEnabled());
            operator.click("nav a[href='#/']");
            operator.waitUntil("the overview shows the backlog drained and the redriven letter handled",
                    () -> overviewShows(operator, "dead letters", 0, DECLINED - 1)
                            && operator.text(OVERVIEW_READY).equals("0"));
            operator.screenshot("drained");
        }
    }

    private void aViewerSeesNoActionAndIsRefusedARedrive(Screenshots screenshots) throws Exception {
        try (ConsoleBrowser viewer = ConsoleBrowser.as(server(), APPLICATION, VIEWER, PASSWORD, screenshots)) {
            viewer.openView(GROUP);
            viewer.waitUntil("the group page shows the " + (DECLINED - 1) + " dead letters left",
                    () -> viewer.findAll("#letters tr[data-message-id]").size() == DECLINED - 1);
            assertThat(viewer.text("#user")).isEqualTo("viewer (viewer)");
            for (String action : List.of("#pause", "#resume", "#redrive", "#discard")) {
                assertThat(viewer.find(action).isDisplayed()).as("a viewer sees the %s button", action).isFalse();
            }
            assertThat(viewer.findAll("#letters input.select")).as("a viewer's dead-letter check boxes").isEmpty();
            viewer.screenshot("viewer-group");

            assertThat(viewer.post(GROUP_PATH + "/dead/redrive")).as("the status of a viewer's redrive").isEqualTo(403);
        }
        assertThat(ConsoleEndpoint.as(server(), APPLICATION, VIEWER, PASSWORD).get(GROUP_PATH).json()
                .getJsonNumber("dead").longValue()).as("dead letters after the viewer's refused redrive")
                .isEqualTo(DECLINED - 1);
    }

    private static boolean overviewShows(ConsoleBrowser page, String health, int lag, int dead) {
        return page.text(OVERVIEW_ROW + "td.health").equals(health)
                && page.text(OVERVIEW_ROW + "td.lag").equals(Integer.toString(lag))
                && page.text(OVERVIEW_ROW + "td.dead").equals(Integer.toString(dead));
    }
}
