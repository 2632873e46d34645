package dev.quiver.cli;

import static org.assertj.core.api.Assertions.fail;

import dev.quiver.session.JavaCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code quiver sql} in its own JVM on a real pseudo-terminal, driven as a person at a keyboard
 * would: util-linux {@code script} (in Debian's essential bsdutils) gives the process a pty as its
 * controlling terminal, so Ctrl-C is a real SIGINT from the terminal's line discipline and the
 * shell's terminal library sees a real tty. Keys go in through {@link #type}; what the terminal
 * shows, without ANSI escapes and carriage returns, comes out through {@link #awaitOutput}, which
 * waits for a condition (never for a time).
 */
final class PtyShell implements AutoCloseable {
    /** Generous: a loaded 2-core machine can take half a minute to start a JVM and plan a first query. */
    static final Duration TIMEOUT = Duration.ofSeconds(180);
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?<=>]*[ -/]*[@-~]|\u001B[()][0-9A-Za-z]|\u001B[=>78]|\r|\u0007");

    private final Process process;
    private final OutputStream keys;
    private final StringBuilder screen = new StringBuilder();
    private final Thread reader;
    /** Where the text the next {@link #expect} looks at starts. */
    private int mark;

    private PtyShell(Process process) {
        this.process = process;
        this.keys = process.getOutputStream();
        InputStream output = process.getInputStream();
        this.reader = new Thread(() -> copy(output), "pty-shell-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code quiver <args>} on a pty of 100 columns, with {@code home} as its home directory (for the history file). */
    static PtyShell start(Path home, String... args) throws IOException {
        List<String> java = JavaCommand.of(List.of("-Duser.home=" + home), QuiverCli.class, args);
        StringBuilder command = new StringBuilder("stty cols 100 rows 40; exec");
        for (String word : java) {
            command.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        List<String> script = new ArrayList<>(List.of("script", "--quiet", "--return", "--flush", "--command", command.toString(), "/dev/null"));
        ProcessBuilder builder = new ProcessBuilder(script).redirectErrorStream(true);
        builder.environment().put("TERM", "xterm");
        builder.environment().remove("COLUMNS");
        return new PtyShell(builder.start());
    }

    private void copy(InputStream output) {
        byte[] buffer = new byte[8192];
        try {
            int read;
            while ((read = output.read(buffer)) >= 0) {
                synchronized (screen) {
                    screen.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
                    screen.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Types {@code text} (may hold control characters: {@code \r} is Enter, {@code \u0003} Ctrl-C, {@code \u0004} Ctrl-D). */
    void type(String text) throws IOException {
        keys.write(text.getBytes(StandardCharsets.UTF_8));
        keys.flush();
    }

    /** What the terminal has shown so far, without escapes. */
    String screen() {
        synchronized (screen) {
            return ANSI.matcher(screen).replaceAll("");
        }
    }

    /**
     * Waits until the screen shows {@code regex} after what earlier expectations matched, as
     * {@code expect} does; returns the screen from there to the end of the match, which later
     * expectations start after.
     */
    String expect(String regex) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        synchronized (screen) {
            while (true) {
                String shown = screen();
                Matcher matcher = pattern.matcher(shown);
                if (matcher.find(Math.min(mark, shown.length()))) {
                    String seen = shown.substring(mark, matcher.end());
                    mark = matcher.end();
                    return seen;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
                    return fail("the terminal did not show /%s/ after what was expected before within %s; it shows:%n%s%n"
                            + "(what was expected before ends at character %d)", regex, TIMEOUT, shown, mark);
                }
                screen.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 500)));
            }
        }
    }

    /** Waits for the next prompt: the shell is ready for the next line. */
    String expectPrompt() throws InterruptedException {
        return expect(Pattern.quote(Shell.PROMPT));
    }

    /** Waits for the process to end and returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            fail("the shell did not end within %s; the terminal shows:%n%s", TIMEOUT, screen());
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
