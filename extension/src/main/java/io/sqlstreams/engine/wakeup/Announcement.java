package io.sqlstreams.engine.wakeup;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The payload of one commit announcement: the installation's schema and either the ids of the streams that
 * committed ({@code "<schema>:12,15"}) or a listener's delivery probe ({@code "<schema>:probe:<token>"}). Every
 * installation of a database shares the one channel, so a listener keeps only its own schema's payloads.
 */
record Announcement(String schema, List<Long> streamIds, String probe) {
    /** PostgreSQL refuses payloads of 8,000 bytes and more; stream ids beyond this split into more payloads. */
    static final int MAX_PAYLOAD = 7_900;
    private static final String PROBE = "probe:";

    static List<String> streams(String schema, Collection<Long> streamIds) {
        List<String> payloads = new ArrayList<>();
        StringBuilder payload = new StringBuilder();
        for (long id : streamIds) {
            String item = Long.toString(id);
            if (payload.length() > 0 && payload.length() + 1 + item.length() > MAX_PAYLOAD) {
                payloads.add(payload.toString());
                payload.setLength(0);
            }
            payload.append(payload.length() == 0 ? schema + ":" : ",").append(item);
        }
        if (payload.length() > 0) {
            payloads.add(payload.toString());
        }
        return payloads;
    }

    static String probe(String schema, String token) {
        return schema + ":" + PROBE + token;
    }

    /** The announcement in {@code payload} when it is one of {@code schema}'s; empty for anything else. */
    static Optional<Announcement> parse(String schema, String payload) {
        if (payload == null || !payload.startsWith(schema + ":")) {
            return Optional.empty();
        }
        String body = payload.substring(schema.length() + 1);
        if (body.startsWith(PROBE)) {
            return Optional.of(new Announcement(schema, List.of(), body.substring(PROBE.length())));
        }
        List<Long> ids = new ArrayList<>();
        for (String item : body.split(",")) {
            try {
                ids.add(Long.parseLong(item));
            } catch (NumberFormatException foreign) {
                return Optional.empty();
            }
        }
        return Optional.of(new Announcement(schema, List.copyOf(ids), null));
    }
}
