package dev.quiver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version lines of {@code quiver --version}: Quiver's version (from the build) and the JVM's. */
public final class VersionInfo implements IVersionProvider {
    /** Quiver's version as the build recorded it, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String quiverVersion() {
        try (InputStream in = VersionInfo.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {
            "Quiver " + quiverVersion(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
        };
    }
}
