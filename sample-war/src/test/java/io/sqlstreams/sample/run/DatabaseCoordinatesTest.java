package io.sqlstreams.sample.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabaseCoordinatesTest {

    @Test
    void readsEveryPartOfAUrlWithTheParametersDecoded() {
        DatabaseCoordinates coordinates = DatabaseCoordinates.fromJdbcUrl(
                "jdbc:postgresql://db.local:5544/shop?user=app&password=s3cr%26t&ssl=false");

        assertThat(coordinates).isEqualTo(new DatabaseCoordinates("db.local", 5544, "shop", "app", "s3cr&t"));
        assertThat(coordinates.displayUrl()).isEqualTo("jdbc:postgresql://db.local:5544/shop?user=app");
    }

    @Test
    void fillsInThePortAndLeavesWhatIsNotGivenUnset() {
        assertThat(DatabaseCoordinates.fromJdbcUrl("jdbc:postgresql://127.0.0.1/postgres"))
                .isEqualTo(new DatabaseCoordinates("127.0.0.1", 5432, "postgres", null, null));
        assertThat(DatabaseCoordinates.fromJdbcUrl("jdbc:postgresql://127.0.0.1/"))
                .isEqualTo(new DatabaseCoordinates("127.0.0.1", 5432, null, null, null));
    }

    @Test
    void refusesAnythingButAPostgresqlUrl() {
        assertThatThrownBy(() -> DatabaseCoordinates.fromJdbcUrl("jdbc:mysql://127.0.0.1/shop"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:postgresql://");
    }
}
