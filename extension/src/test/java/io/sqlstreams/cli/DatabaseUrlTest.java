package io.sqlstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

/** The two URL forms {@code --url} accepts, and where each points. */
class DatabaseUrlTest {

    @Test
    void aJdbcUrlIsUsedAsItIs() {
        PGSimpleDataSource dataSource = DatabaseUrl.dataSource("jdbc:postgresql://db1:6432/app?user=ops&sslmode=require");

        assertThat(dataSource.getServerNames()).containsExactly("db1");
        assertThat(dataSource.getDatabaseName()).isEqualTo("app");
        assertThat(dataSource.getUser()).isEqualTo("ops");
        assertThat(dataSource.getSslMode()).isEqualTo("require");
        assertThat(DatabaseUrl.where(dataSource)).isEqualTo("db1:6432");
    }

    @Test
    void aLibpqUrlHasItsUserAndPasswordDecoded() {
        PGSimpleDataSource dataSource = DatabaseUrl.dataSource("postgres://app%40corp:p%3Ass%2Fw+rd@db.example:6543/orders?sslmode=verify-full");

        assertThat(dataSource.getUser()).isEqualTo("app@corp");
        assertThat(dataSource.getPassword()).isEqualTo("p:ss/w+rd");
        assertThat(dataSource.getDatabaseName()).isEqualTo("orders");
        assertThat(dataSource.getSslMode()).isEqualTo("verify-full");
        assertThat(DatabaseUrl.where(dataSource)).isEqualTo("db.example:6543");
    }

    @Test
    void aLibpqUrlWithoutPortOrCredentialsUsesTheDefaults() {
        PGSimpleDataSource dataSource = DatabaseUrl.dataSource("postgresql://[::1]/postgres");

        assertThat(dataSource.getUser()).isNull();
        assertThat(DatabaseUrl.where(dataSource)).isEqualTo("[::1]:5432");
    }

    @Test
    void severalHostsAreAllNamed() {
        PGSimpleDataSource dataSource = DatabaseUrl.dataSource("jdbc:postgresql://a:5433,b/app");

        assertThat(DatabaseUrl.where(dataSource)).isEqualTo("a:5433,b:5432");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql://root:secret@db/app", "postgres:///socket-only", "secret", "jdbc:mysql://db/app"})
    void anythingElseIsRejectedWithoutRepeatingIt(String url) {
        assertThatThrownBy(() -> DatabaseUrl.dataSource(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--url must be a PostgreSQL URL")
                .hasMessageNotContaining("secret");
    }
}
