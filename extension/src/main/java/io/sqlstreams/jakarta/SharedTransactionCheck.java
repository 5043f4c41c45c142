package io.sqlstreams.jakarta;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.sql.Connection;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

import javax.sql.DataSource;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import io.sqlstreams.Code;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.HostTransactions;
import io.sqlstreams.engine.client.BackendProcess;

/**
 * At the deployment's validation, when an observer is transactional: proves that what it writes and the library's
 * outcome row share one PostgreSQL session in a JTA transaction, so the server commits them in one phase. Two
 * connections of the library's data source taken in one transaction must be the same backend, and so must one of
 * every other data source a JTA persistence unit of the application names. Anything else would need a two-phase
 * (XA) commit, and is refused (SQL0159) rather than started behind the user's back. The probe's transaction is
 * rolled back.
 */
final class SharedTransactionCheck {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    private final HostTransactions transactions;
    private final DataSource library;
    private final String libraryName;
    private final BackendProcess backend;

    /** @param schema the installation's schema, which the library's statements name */
    SharedTransactionCheck(HostTransactions transactions, DataSource library, String libraryName, String schema) {
        this.transactions = transactions;
        this.library = library;
        this.libraryName = libraryName;
        this.backend = new BackendProcess(schema);
    }

    /**
     * @param application the class loader whose {@code META-INF/persistence.xml} files declare the persistence units
     * @param lookup      the data source at a JNDI name; throws {@link IllegalStateException} when none is bound
     */
    void verify(ClassLoader application, Function<String, DataSource> lookup) {
        probe(library, "a second connection of " + libraryName);
        for (String name : jtaDataSources(application)) {
            if (!name.equals(libraryName)) {
                DataSource other;
                try {
                    other = lookup.apply(name);
                } catch (IllegalStateException missing) {
                    throw refused("a JTA persistence unit uses data source " + name + ", which is not "
                            + libraryName + " and could not be looked up to compare: " + missing.getMessage());
                }
                probe(other, "data source " + name + " of a JTA persistence unit");
            }
        }
    }

    private void probe(DataSource other, String what) {
        try (HostTransactions.HostTransaction transaction = transactions.begin(PROBE_TIMEOUT);
             Connection first = library.getConnection();
             Connection second = other.getConnection()) {
            int libraryBackend = backend.pid(first);
            int otherBackend = backend.pid(second);
            if (libraryBackend != otherBackend) {
                throw refused(what + " is PostgreSQL backend " + otherBackend + " in the same JTA transaction as "
                        + libraryName + "'s backend " + libraryBackend);
            }
        } catch (SqlStreamsException refusal) {
            throw refusal;
        } catch (Exception failure) {
            throw refused(what + " could not join one JTA transaction with " + libraryName + ": " + failure);
        }
    }

    private SqlStreamsException refused(String why) {
        return new SqlStreamsException(Code.SQL0159, "a transactional @ConsumerGroup observer cannot commit its writes"
                + " with its messages' outcomes in one phase: " + why);
    }

    /** The jta-data-source of every persistence unit not declared RESOURCE_LOCAL. */
    static Set<String> jtaDataSources(ClassLoader application) {
        Set<String> names = new LinkedHashSet<>();
        try {
            for (URL file : Collections.list(application.getResources("META-INF/persistence.xml"))) {
                try (InputStream in = file.openStream()) {
                    NodeList units = parser().parse(in).getElementsByTagNameNS("*", "persistence-unit");
                    for (int i = 0; i < units.getLength(); i++) {
                        Element unit = (Element) units.item(i);
                        NodeList dataSources = unit.getElementsByTagNameNS("*", "jta-data-source");
                        if (!"RESOURCE_LOCAL".equals(unit.getAttribute("transaction-type"))
                                && dataSources.getLength() > 0) {
                            names.add(dataSources.item(0).getTextContent().strip());
                        }
                    }
                }
            }
        } catch (IOException | SAXException | ParserConfigurationException unreadable) {
            throw new SqlStreamsException(Code.SQL0159, "the application's persistence.xml could not be read to"
                    + " check the data sources of its JTA persistence units: " + unreadable.getMessage(), unreadable);
        }
        return names;
    }

    private static javax.xml.parsers.DocumentBuilder parser() throws ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder();
    }
}
