package io.sqlstreams.sample.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * The demo users of the sample's operator console, one per console role: in Liberty's basic registry, or in
 * Payara's file realm. The sample listens on 127.0.0.1 only; the passwords are printed and documented, so they
 * protect nothing beyond this machine.
 */
final class ConsoleUsers {
    static final String PATH = "sqlstreams/";
    static final String VIEWER = "viewer";
    static final String OPERATOR = "operator";
    static final String PASSWORD = "sample-console";

    private ConsoleUsers() {
    }

    /**
     * Payara pre-boot commands: the file realm reads {@code keyfile} (a boot command file cannot create a user
     * with a password), and each group maps to the role of its name.
     */
    static String payaraCommands(Path keyfile) {
        return """
                set configs.config.server-config.security-service.auth-realm.file.property.file=%s
                set configs.config.server-config.security-service.activate-default-principal-to-role-mapping=true
                """.formatted(keyfile);
    }

    /** The users as lines of a Payara file realm keyfile: {@code name;{SSHA256}hash;group}. */
    static String payaraKeyfile() {
        return keyfileLine(VIEWER, "sqlstreams-viewer") + keyfileLine(OPERATOR, "sqlstreams-operator");
    }

    /** The realm's salted SHA-256: the password and an 8-byte salt hashed, then the hash again, 100 times in all. */
    private static String keyfileLine(String user, String group) {
        byte[] salt = (user + "-salt").substring(0, 8).getBytes(StandardCharsets.US_ASCII);
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(PASSWORD.getBytes(StandardCharsets.UTF_8));
            sha256.update(salt);
            byte[] hash = sha256.digest();
            for (int round = 1; round < 100; round++) {
                hash = sha256.digest(hash);
            }
            byte[] stored = Arrays.copyOf(hash, hash.length + salt.length);
            System.arraycopy(salt, 0, stored, hash.length, salt.length);
            return user + ";{SSHA256}" + Base64.getEncoder().encodeToString(stored) + ";" + group + "\n";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /** The registry and its groups; Liberty maps each console role to the group of the same name. */
    static String registryXml() {
        return """
                  <featureManager>
                    <feature>appSecurity-5.0</feature>
                  </featureManager>
                  <basicRegistry id="sample-console" realm="sqlstreams-sample">
                    <user name="%1$s" password="%3$s"/>
                    <user name="%2$s" password="%3$s"/>
                    <group name="sqlstreams-viewer"><member name="%1$s"/></group>
                    <group name="sqlstreams-operator"><member name="%2$s"/></group>
                  </basicRegistry>
                """.formatted(VIEWER, OPERATOR, PASSWORD);
    }
}
