package dev.quiver.cli;

import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * What the CLI needs to know about the terminal before it has one open: whether a standard stream
 * is a terminal, and how wide the terminal is. Cheap on purpose (no terminal library is loaded), as
 * every batch run asks.
 */
final class Terminals {
    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;

    private Terminals() {}

    /**
     * Whether file descriptor {@code fd} of this process is a terminal: on Linux from what
     * {@code /proc/self/fd/N} links to, elsewhere from whether the JVM found a console (which needs
     * standard input and output to be terminals).
     */
    static boolean isTerminal(int fd) {
        Path link = Path.of("/proc/self/fd", Integer.toString(fd));
        try {
            String target = Files.readSymbolicLink(link).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException e) {
            return hasConsole();
        }
    }

    /** {@link System#console()} exists, and on JDK 22 and later also says it is a terminal. */
    private static boolean hasConsole() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            // before JDK 22 a console exists only when standard input and output are terminals
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** The width {@code $COLUMNS} asks for, if it is set to a number. */
    static OptionalInt columnsVariable() {
        String columns = System.getenv("COLUMNS");
        return columns != null && columns.matches("\\d{1,5}") ? OptionalInt.of(Integer.parseInt(columns)) : OptionalInt.empty();
    }

    /**
     * The width of the terminal in characters: {@code $COLUMNS} if set, else what {@code stty size}
     * says of {@code /dev/tty}; 0 when unknown (output is then not fitted to a width).
     */
    static int width() {
        OptionalInt columns = columnsVariable();
        if (columns.isPresent()) {
            return columns.getAsInt();
        }
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return 0;
        }
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(tty).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String size = new String(stty.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!stty.waitFor(2, TimeUnit.SECONDS) || stty.exitValue() != 0) {
                stty.destroy();
                return 0;
            }
            String[] rowsAndColumns = size.split("\\s+");
            return rowsAndColumns.length == 2 && rowsAndColumns[1].matches("\\d{1,5}") ? Integer.parseInt(rowsAndColumns[1]) : 0;
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
