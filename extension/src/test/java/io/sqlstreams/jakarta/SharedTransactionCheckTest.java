package io.sqlstreams.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.testing.PostgresTest;
import io.sqlstreams.testing.TestDatabase;

/**
 * The check before a transactional observer's first session, against a real PostgreSQL with
 * {@link SimulatedTransactions} as the server's JTA: a data source whose connections in one transaction are one
 * backend passes; a persistence unit on a data source that is another backend, or on a name nothing is bound at,
 * is refused with SQL0159.
 */
@PostgresTest
class SharedTransactionCheckTest {
    private static final String LIBRARY = "jdbc/sqlstreams";

    @TempDir
    Path application;
    private DataSource pool;
    private DataSource enlisting;
    private SharedTransactionCheck check;

    @BeforeEach
    void transactions(TestDatabase database) {
        pool = database.dataSource();
        enlisting = SimulatedTransactions.enlisting(pool);
        check = new SharedTransactionCheck(SimulatedTransactions.host(pool, enlisting), enlisting, LIBRARY,
                database.schema());
    }

    @Test
    void aPersistenceUnitOnTheLibrarysDataSourcePasses() throws IOException {
        ClassLoader units = persistenceUnits(unit("orders", "JTA", LIBRARY));

        assertThatCode(() -> check.verify(units, name -> {
            throw new AssertionError("nothing else is looked up, asked for " + name);
        })).doesNotThrowAnyException();
    }

    @Test
    void aPersistenceUnitOnAnotherBackendIsRefusedWithItsCode() throws IOException {
        ClassLoader units = persistenceUnits(unit("orders", "JTA", "jdbc/elsewhere"));

        assertThatThrownBy(() -> check.verify(units, Map.of("jdbc/elsewhere", pool)::get))
                .isInstanceOf(SqlStreamsException.class)
                .hasMessageStartingWith("SQL0159 a transactional @ConsumerGroup observer cannot commit its writes")
                .hasMessageContaining("data source jdbc/elsewhere of a JTA persistence unit is PostgreSQL backend");
    }

    @Test
    void aPersistenceUnitOnANameNothingIsBoundAtIsRefused() throws IOException {
        ClassLoader units = persistenceUnits(unit("orders", "JTA", "jdbc/missing"));

        assertThatThrownBy(() -> check.verify(units, name -> {
            throw new IllegalStateException("no data source is bound at JNDI name " + name);
        })).hasMessageStartingWith("SQL0159").hasMessageContaining("a JTA persistence unit uses data source"
                + " jdbc/missing, which is not jdbc/sqlstreams and could not be looked up to compare");
    }

    @Test
    void aLibraryDataSourceThatDoesNotShareItsConnectionsIsRefused(TestDatabase database) {
        SharedTransactionCheck unshared = new SharedTransactionCheck(SimulatedTransactions.host(pool, enlisting), pool,
                LIBRARY, database.schema());

        assertThatThrownBy(() -> unshared.verify(getClass().getClassLoader(), name -> pool))
                .hasMessageStartingWith("SQL0159")
                .hasMessageContaining("a second connection of jdbc/sqlstreams is PostgreSQL backend");
    }

    @Test
    void onlyTheJtaUnitsDataSourcesAreRead() throws IOException {
        ClassLoader units = persistenceUnits(unit("local", "RESOURCE_LOCAL", "jdbc/local")
                + unit("default", null, "jdbc/defaulted") + unit("nameless", "JTA", null));

        assertThat(SharedTransactionCheck.jtaDataSources(units)).containsExactly("jdbc/defaulted");
    }

    private static String unit(String name, String transactionType, String dataSource) {
        return "<persistence-unit name=\"" + name + "\""
                + (transactionType == null ? "" : " transaction-type=\"" + transactionType + "\"") + ">"
                + (dataSource == null ? "" : "<jta-data-source> " + dataSource + " </jta-data-source>")
                + "</persistence-unit>";
    }

    /** A class loader of nothing but a {@code META-INF/persistence.xml} holding {@code units}. */
    private ClassLoader persistenceUnits(String units) throws IOException {
        Path file = application.resolve("META-INF/persistence.xml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "<persistence xmlns=\"https://jakarta.ee/xml/ns/persistence\" version=\"3.0\">"
                + units + "</persistence>");
        return new URLClassLoader(new URL[] {application.toUri().toURL()}, null);
    }
}
