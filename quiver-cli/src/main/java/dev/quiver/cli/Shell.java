package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.OutputFormat;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.QuerySession;
import dev.quiver.session.ScriptStatement;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jline.keymap.KeyMap;
import org.jline.reader.Binding;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Reference;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The interactive shell of {@code quiver sql} when standard input is a terminal: a prompt with line
 * editing, history kept in {@code ~/.quiver_history}, statements that span lines until a {@code ;},
 * tab completion of keywords, tables and columns, and {@link MetaCommands}. Every statement's result
 * prints as in batch mode. Ctrl-C cancels the running query (or clears the line being typed) and
 * the shell goes on; Ctrl-D on an empty line, {@code .quit} or {@code .exit} end it.
 */
final class Shell {
    static final String PROMPT = "quiver> ";
    static final String CONTINUATION_PROMPT = "   ...> ";
    static final String HISTORY_FILE = ".quiver_history";
    private static final int DEFAULT_WIDTH = 80;
    private static final int DEFAULT_HEIGHT = 24;

    private final QuerySession session;
    private final Terminal terminal;
    private final ShellState state;
    private final ExplainOutput explainOutput;
    private final PrintWriter out;

    private Shell(QuerySession session, Terminal terminal, ShellState state, ExplainOutput explainOutput) {
        this.session = requireNonNull(session, "session is null");
        this.terminal = requireNonNull(terminal, "terminal is null");
        this.state = requireNonNull(state, "state is null");
        this.explainOutput = requireNonNull(explainOutput, "explainOutput is null");
        this.out = terminal.writer();
    }

    /** Runs a shell on this process's terminal until the user leaves it. */
    static void run(QuerySession session, ShellState state, ExplainOutput explainOutput, String version) {
        Terminal terminal;
        try {
            terminal = TerminalBuilder.builder().name("quiver").system(true).build();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the terminal: " + e.getMessage(), e);
        }
        try (terminal) {
            if (terminal.getWidth() <= 0) {
                // a terminal that reports no size (a bare pty) would get a prompt cut to nothing
                terminal.setSize(new Size(DEFAULT_WIDTH, DEFAULT_HEIGHT));
            }
            new Shell(session, terminal, state, explainOutput).loop(version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void loop(String version) {
        LineReader reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("quiver")
                .parser(new SqlLineParser())
                .completer(new SqlCompleter(() -> CatalogNames.of(session)))
                .variable(LineReader.HISTORY_FILE, Path.of(System.getProperty("user.home"), HISTORY_FILE))
                .variable(LineReader.HISTORY_FILE_SIZE, 10_000)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION_PROMPT)
                .variable(LineReader.BLINK_MATCHING_PAREN, 0)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.CASE_INSENSITIVE, true)
                .build();
        bindPlainArrowKeys(reader);
        try (ProgressLine progress = new ProgressLine(out, terminal::getWidth)) {
            StatementRunner runner = new StatementRunner(session, out, out, Optional.of(progress), explainOutput);
            // while a statement runs, Ctrl-C cancels it; while a line is read, the reader takes Ctrl-C itself
            terminal.handle(Terminal.Signal.INT, signal -> runner.cancelRunning());
            MetaCommands commands = new MetaCommands(state, out, statement -> runListing(runner, statement), script -> runScript(runner, script));
            out.println("Quiver " + version + ": end SQL statements with ';'; .help for the shell's commands, Ctrl-D to quit.");
            out.flush();
            while (true) {
                String input;
                try {
                    input = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    return;
                }
                if (MetaCommands.isMetaCommand(input.strip())) {
                    if (runCommand(commands, input) == MetaCommands.Outcome.QUIT) {
                        return;
                    }
                } else if (!input.isBlank()) {
                    runScript(runner, input);
                }
            }
        }
    }

    /**
     * JLine binds the arrow keys a terminal sends in keypad mode, which it asks for ({@code ESC O A});
     * terminals that ignore that request send the plain ANSI keys ({@code ESC [ A}), bound here too.
     */
    private static void bindPlainArrowKeys(LineReader reader) {
        KeyMap<Binding> keys = reader.getKeyMaps().get(LineReader.EMACS);
        keys.bind(new Reference(LineReader.UP_LINE_OR_HISTORY), "\u001b[A");
        keys.bind(new Reference(LineReader.DOWN_LINE_OR_HISTORY), "\u001b[B");
        keys.bind(new Reference(LineReader.FORWARD_CHAR), "\u001b[C");
        keys.bind(new Reference(LineReader.BACKWARD_CHAR), "\u001b[D");
    }

    private MetaCommands.Outcome runCommand(MetaCommands commands, String line) {
        try {
            return commands.run(line);
        } catch (QuiverException e) {
            printError(e);
            return MetaCommands.Outcome.CONTINUE;
        }
    }

    /** Runs a meta command's catalog statement ({@code SHOW TABLES}, {@code DESCRIBE t}), printing every row and no time. */
    private void runListing(StatementRunner runner, String statement) {
        // a listing is short, and cutting it would hide names
        runner.run(ScriptStatement.split(statement).get(0), state.format(), state.display(terminal.getWidth()).withMaxRows(0).withTimer(false));
        out.flush();
    }

    /** Runs the statements of {@code script} one by one, printing each result; the first failure is printed and ends the script. */
    private void runScript(StatementRunner runner, String script) {
        List<ScriptStatement> statements = ScriptStatement.split(script);
        for (ScriptStatement statement : statements) {
            long start = System.nanoTime();
            try {
                runner.run(statement, state.format(), state.display(terminal.getWidth()));
            } catch (RuntimeException e) {
                printError(e);
                return;
            }
            if (state.timer() && state.format() != OutputFormat.TABLE) {
                out.println("(" + seconds(Duration.ofNanos(System.nanoTime() - start)) + ")");
            }
            out.flush();
        }
    }

    private void printError(RuntimeException failure) {
        out.println("Error: " + ErrorReporter.describe(failure));
        ErrorReporter.printStackTraceIfDebugging(failure, out);
        out.flush();
    }

    private static String seconds(Duration elapsed) {
        return String.format(Locale.ROOT, "%.3f s", elapsed.toNanos() / 1e9);
    }
}
