package io.sqlstreams.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * The {@code --url} value as a pgjdbc data source without a pool: a JDBC URL
 * ({@code jdbc:postgresql://host:port/db?user=…}) or a libpq-style URL ({@code postgres://user:password@host/db}),
 * whose user and password are percent-decoded. Error messages never repeat the URL, which may carry a password.
 */
final class DatabaseUrl {
    private static final String JDBC_PREFIX = "jdbc:postgresql:";
    private static final int DEFAULT_PORT = 5432;

    private DatabaseUrl() {
    }

    /** @throws IllegalArgumentException when the text is neither form of PostgreSQL URL */
    static PGSimpleDataSource dataSource(String url) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        String trimmed = url.trim();
        try {
            if (trimmed.startsWith(JDBC_PREFIX)) {
                dataSource.setURL(trimmed);
            } else if (trimmed.startsWith("postgres://") || trimmed.startsWith("postgresql://")) {
                fromLibpqForm(new URI(trimmed), dataSource);
            } else {
                throw invalid();
            }
        } catch (URISyntaxException | IllegalArgumentException malformed) {
            throw invalid();
        }
        return dataSource;
    }

    /** Where the data source connects, as {@code host:port[,host:port…]}. */
    static String where(PGSimpleDataSource dataSource) {
        String[] hosts = dataSource.getServerNames();
        int[] ports = dataSource.getPortNumbers();
        return IntStream.range(0, hosts.length)
                .mapToObj(i -> hosts[i] + ":" + (ports.length > i && ports[i] > 0 ? ports[i] : DEFAULT_PORT))
                .collect(Collectors.joining(","));
    }

    private static void fromLibpqForm(URI uri, PGSimpleDataSource dataSource) {
        if (uri.getHost() == null) {
            throw invalid();
        }
        String port = uri.getPort() > 0 ? ":" + uri.getPort() : "";
        String path = uri.getRawPath() == null ? "/" : uri.getRawPath();
        String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
        dataSource.setURL(JDBC_PREFIX + "//" + uri.getHost() + port + path + query);
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            dataSource.setUser(decode(parts[0]));
            if (parts.length == 2) {
                dataSource.setPassword(decode(parts[1]));
            }
        }
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException invalid() {
        return new IllegalArgumentException("--url must be a PostgreSQL URL: jdbc:postgresql://host:port/database?user=…"
                + " or postgres://user:password@host:port/database");
    }
}
