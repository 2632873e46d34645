package dev.quiver.session;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/** What tests read from a child JVM's standard output ({@link JavaCommand}). */
public final class ChildOutput {
    private ChildOutput() {}

    /**
     * The first line of {@code out} that {@code wanted} accepts, skipping the lines before it (JVM
     * warnings may come first); fails with the child's log ({@code log}, its standard error) if the
     * output ends first.
     */
    public static String awaitLine(BufferedReader out, Predicate<String> wanted, Path log, String what) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (wanted.test(line)) {
                return line;
            }
        }
        throw new IllegalStateException("the " + what + " ended first; its log: " + Files.readString(log));
    }
}
