package io.sqlstreams.sample.run;

import java.io.PrintStream;
import java.net.URI;
import java.util.List;

import io.sqlstreams.sample.PaymentRequestedV1;
import io.sqlstreams.sample.charges.CardGateway;

/** What the launcher prints once the sample is ready: where to look, and orders to paste into a shell. */
final class Instructions {
    private static final String RULE = "=".repeat(100);

    private Instructions() {
    }

    static void print(SampleServer server, SampleDatabase database, PrintStream out) {
        URI base = server.baseUri();
        URI orders = base.resolve("api/orders");
        out.println();
        out.println(RULE);
        out.println("The payments sample runs on " + server.name() + ", with " + database.describe() + ".");
        out.println();
        out.println("  the page    " + base);
        out.println("  health      " + base.resolve("health") + "   (" + base.resolve("health/ready") + ")");
        out.println("  the groups  " + base.resolve("api/status"));
        out.println("  the console " + base.resolve(ConsoleUsers.PATH) + "   (user " + ConsoleUsers.OPERATOR + " or "
                + ConsoleUsers.VIEWER + ", password " + ConsoleUsers.PASSWORD + ")");
        out.println("  the database " + database.coordinates().displayUrl()
                + (database.coordinates().password() == null ? "" : "   (and its password)"));
        out.println();
        out.println("The command-line tool, from the root of this clone, reads the same installation:");
        out.println("  " + String.join(" ", inspectCommand(database.coordinates()).stream()
                .map(word -> word.contains("?") ? "'" + word + "'" : word).toList()));
        out.println();
        out.println("Place an order; the answer's Location header is the order, CHARGED within a second or two:");
        out.println("  " + placeOrder(orders, "ada", 1234));
        out.println("  curl -s " + orders + "/<id>");
        out.println("A customer called " + CardGateway.FLAKY_PREFIX + "… finds the gateway down on the first attempt "
                + "and is charged on the retry, about 5 s later:");
        out.println("  " + placeOrder(orders, CardGateway.FLAKY_PREFIX + "bob", 2500));
        out.println("More than " + CardGateway.LIMIT_CENTS + " cents is declined for good (dead-lettered):");
        out.println("  " + placeOrder(orders, "cy", CardGateway.LIMIT_CENTS + 1));
        out.println();
        out.println("Ctrl-C stops " + server.name() + " and the database the launcher started.");
        out.println(RULE);
        out.println();
        out.flush();
    }

    /**
     * The {@code sqlstreams} command, run from the root of the clone, that inspects the charge-cards group in the
     * sample's database (whose password, if it has one, stays off screen).
     */
    static List<String> inspectCommand(DatabaseCoordinates database) {
        return List.of("extension/src/main/scripts/sqlstreams", "--url", database.displayUrl(), "consumer",
                "inspect", PaymentRequestedV1.STREAM, "charge-cards");
    }

    private static String placeOrder(URI orders, String customer, long amountCents) {
        return "curl -si -H 'Content-Type: application/json' -d '{\"customer\":\"" + customer + "\",\"amountCents\":"
                + amountCents + ",\"currency\":\"EUR\"}' " + orders;
    }
}
