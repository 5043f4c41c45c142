package io.sqlstreams.sample.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/** Waits until a server's {@code /health/ready} answers 200: the application is deployed and its groups consume. */
final class ReadinessProbe {
    private static final Duration POLL = Duration.ofMillis(500);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ReadinessProbe() {
    }

    static void await(SampleServer server, Duration timeout) throws InterruptedException {
        URI ready = server.baseUri().resolve("/health/ready");
        Instant deadline = Instant.now().plus(timeout);
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            if (!server.isAlive()) {
                throw new IllegalStateException(server.name() + " exited (code " + server.exitValue()
                        + ") before the sample was ready; see " + server.log());
            }
            try {
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(ready).timeout(POLL.multipliedBy(10))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
                last = answer.statusCode() + " " + answer.body();
            } catch (IOException notListeningYet) {
                last = notListeningYet.toString();
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("the sample was not ready within " + timeout.toSeconds() + " s (last answer "
                + "of " + ready + ": " + last + "); see " + server.log());
    }
}
