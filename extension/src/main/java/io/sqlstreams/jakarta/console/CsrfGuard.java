package io.sqlstreams.jakarta.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The token a console page must echo in {@value #HEADER} on every change: one per HTTP session, handed out by
 * {@code api/session}, so a page of another origin, which cannot read it, cannot forge a change.
 */
final class CsrfGuard {
    static final String HEADER = "X-SQLStreams-CSRF";
    private static final String ATTRIBUTE = CsrfGuard.class.getName();
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfGuard() {
    }

    /** The session's token, creating the session and the token when there is none yet. */
    static String token(HttpServletRequest request) {
        HttpSession session = request.getSession(true);
        synchronized (session) {
            String token = (String) session.getAttribute(ATTRIBUTE);
            if (token == null) {
                byte[] bytes = new byte[32];
                RANDOM.nextBytes(bytes);
                token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
                session.setAttribute(ATTRIBUTE, token);
            }
            return token;
        }
    }

    /** Refuses (403) a request whose header does not carry its session's token. */
    static void check(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        String expected = session == null ? null : (String) session.getAttribute(ATTRIBUTE);
        String sent = request.getHeader(HEADER);
        if (expected == null || sent == null || !MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.US_ASCII), sent.getBytes(StandardCharsets.US_ASCII))) {
            throw ConsoleFailure.forbidden("a change needs the header " + HEADER + " with the token of api/session");
        }
    }
}
