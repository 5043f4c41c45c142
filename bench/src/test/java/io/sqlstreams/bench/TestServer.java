package io.sqlstreams.bench;

import java.util.Optional;

/** The server the bench tests measure: {@code SQLSTREAMS_TEST_JDBC_URL} when set, else an embedded one. */
final class TestServer {
    static final String URL_VARIABLE = "SQLSTREAMS_TEST_JDBC_URL";

    private TestServer() {
    }

    static Optional<String> jdbcUrl() {
        return Optional.ofNullable(System.getenv(URL_VARIABLE)).map(String::trim).filter(url -> !url.isEmpty());
    }
}
