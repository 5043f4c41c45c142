package io.sqlstreams.bench;

import java.util.Optional;

import io.sqlstreams.testing.TestPostgres;

/**
 * The server the bench tests measure: the one the extension's tests are pointed at ({@code SQLSTREAMS_TEST_JDBC_URL},
 * or this JVM's entry of {@code SQLSTREAMS_TEST_JDBC_URLS}) when set, else an embedded one.
 */
final class TestServer {
    private TestServer() {
    }

    static Optional<String> jdbcUrl() {
        return TestPostgres.configuredUrl();
    }
}
