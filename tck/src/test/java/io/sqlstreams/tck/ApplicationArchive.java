package io.sqlstreams.tck;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.slf4j.LoggerFactory;

import com.cronutils.parser.CronParser;
import io.sqlstreams.SqlStreams;
import io.sqlstreams.jakarta.SqlStreamsExtension;
import io.sqlstreams.tck.deployment.Journal;
import io.sqlstreams.tck.deployment.Payment;

/**
 * A test application as a user would ship it: its beans in {@code WEB-INF/classes}, its group declarations in
 * {@code META-INF/microprofile-config.properties}, and the sqlstreams api and extension jars with the extension's
 * runtime dependencies (cron-utils and its SLF4J API) in {@code WEB-INF/lib}.
 */
public final class ApplicationArchive {
    private ApplicationArchive() {
    }

    /** A WAR called {@code name} with the classes of {@code beans} and the given MicroProfile Config. */
    public static WebArchive of(String name, Package beans, Map<String, String> config) {
        return bundled(beans, ShrinkWrap.create(WebArchive.class, name + ".war")
                .addPackage(beans)
                .addAsResource(new StringAsset(properties(config)), "META-INF/microprofile-config.properties")
                .addAsLibraries(library("sqlstreams-api.jar", SqlStreams.class),
                        library("sqlstreams-extension.jar", SqlStreamsExtension.class),
                        library("cron-utils.jar", CronParser.class), library("slf4j-api.jar", LoggerFactory.class)));
    }

    /**
     * {@code war} with the jars a server's run has the applications of {@code beans} bundle besides: those of the
     * class path in the file that the system property {@code sqlstreams.tck.libraries.<last segment of beans>} names,
     * if set (on Payara Micro, which has no Reactive Messaging, SmallRye's for the package {@code reactive}).
     */
    private static WebArchive bundled(Package beans, WebArchive war) {
        String segment = beans.getName().substring(beans.getName().lastIndexOf('.') + 1);
        String file = System.getProperty("sqlstreams.tck.libraries." + segment);
        if (file == null || file.isBlank()) {
            return war;
        }
        try {
            for (String jar : Files.readString(Path.of(file)).strip().split(File.pathSeparator)) {
                war.addAsLibrary(Path.of(jar).toFile());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the libraries of " + beans.getName() + " from " + file, e);
        }
        return war;
    }

    /**
     * A WAR called {@code name} whose observers (the classes of {@code beans}) work in {@code schema} and write to
     * the {@link Journal}, with {@code settings} as further MicroProfile Config.
     */
    public static WebArchive journalling(String name, Package beans, String schema, Map<String, String> settings) {
        Map<String, String> config = new HashMap<>(settings);
        config.put("sqlstreams.schema", schema);
        return of(name, beans, config).addClasses(Journal.class, Payment.class);
    }

    /**
     * The whole jar (or, in an IDE, the classes directory) that {@code member} was loaded from, with its service
     * files and SQL resources: the module as built, whether it came from the reactor or the local repository.
     */
    private static JavaArchive library(String name, Class<?> member) {
        Path location;
        try {
            location = Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the class path entry of " + member.getName(), e);
        }
        if (Files.isDirectory(location)) {
            return ShrinkWrap.create(ExplodedImporter.class, name).importDirectory(location.toFile())
                    .as(JavaArchive.class);
        }
        return ShrinkWrap.create(ZipImporter.class, name).importFrom(location.toFile()).as(JavaArchive.class);
    }

    private static String properties(Map<String, String> config) {
        Properties properties = new Properties();
        properties.putAll(config);
        StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}
