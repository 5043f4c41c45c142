package io.sqlstreams.sample.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A {@code POST /api/orders} whose body is only begun: the head, then the first bytes of the body, and then
 * nothing; what the server answers before the rest would have come.
 */
final class HalfSentRequest {
    private static final int TIMEOUT_MILLIS = 10_000;

    private HalfSentRequest() {
    }

    /** The answer's status line, such as {@code HTTP/1.1 413 Request Entity Too Large}. */
    static String statusLine(URI base, String lengthHeader, byte[] bodyStart) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/orders HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nContent-Type: application/json\r\n" + lengthHeader + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bodyStart);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            return String.valueOf(in.readLine());
        }
    }
}
