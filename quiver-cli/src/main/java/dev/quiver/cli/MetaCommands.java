package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.OutputFormat;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The shell's own commands, which are not SQL: a line starting with {@code .} or {@code \}, as in
 * DuckDB's and psql's shells. The listings are the catalog statements any client can run
 * ({@code .tables} is {@code SHOW TABLES}, {@code .schema t} is {@code DESCRIBE t}, {@code .schema}
 * reads {@code information_schema.columns}); the others change the shell's {@link ShellState}, and
 * {@code .read} runs a file's statements through the shell.
 */
final class MetaCommands {
    /** Every command, for completion and {@code .help}. */
    static final List<String> NAMES = List.of(".help", ".tables", ".schema", ".mode", ".maxrows", ".timer", ".read", ".quit", ".exit",
            "\\d", "\\dt", "\\q", "\\?");

    static final String HELP = String.join("\n",
            "SQL statements end with ';' and may span lines. Ctrl-C cancels a running query (or clears the line), Ctrl-D quits.",
            ".tables, \\d          list the tables and views (SHOW TABLES)",
            ".schema [NAME], \\d NAME   the columns of a table or view (DESCRIBE NAME; all of them without NAME)",
            ".mode [table|csv|json|markdown|line]   the output format (shows it without an argument)",
            ".maxrows [N]         rows a table shows, the first and the last ones (0: all; default 40)",
            ".timer on|off        print each statement's time",
            ".read FILE           run the statements of FILE",
            ".help, \\?           this help",
            ".quit, .exit, \\q    leave the shell (Ctrl-D too)",
            "");

    /** The statement {@code .schema} alone runs: every column of every table and view. */
    static final String ALL_COLUMNS = "SELECT table_name, column_name, data_type AS column_type, is_nullable AS \"null\" "
            + "FROM information_schema.columns ORDER BY table_name, ordinal_position";
    /** A table or view name as SQL writes it: plain or double-quoted, optionally schema-qualified. */
    private static final Pattern TABLE_NAME = qualifiedName("(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)");

    /** What the shell does after a command. */
    enum Outcome {
        CONTINUE,
        QUIT
    }

    private final ShellState state;
    private final PrintWriter out;
    private final Consumer<String> listing;
    private final Consumer<String> scriptRunner;

    /**
     * Commands changing {@code state} and printing on {@code out}; {@code listing} runs one catalog
     * statement and prints every row of its result, {@code scriptRunner} runs the text of a
     * {@code .read} file.
     */
    MetaCommands(ShellState state, PrintWriter out, Consumer<String> listing, Consumer<String> scriptRunner) {
        this.state = requireNonNull(state, "state is null");
        this.out = requireNonNull(out, "out is null");
        this.listing = requireNonNull(listing, "listing is null");
        this.scriptRunner = requireNonNull(scriptRunner, "scriptRunner is null");
    }

    static boolean isMetaCommand(String text) {
        return text.startsWith(".") || text.startsWith("\\");
    }

    /**
     * Runs one command line.
     *
     * @throws QuiverException INVALID_ARGUMENT for an unknown command or bad arguments, or the error of a statement it ran
     */
    Outcome run(String line) {
        String[] words = line.strip().split("\\s+", 2);
        String command = words[0].toLowerCase(Locale.ROOT);
        String argument = words.length > 1 ? words[1].strip() : "";
        switch (command) {
            case ".quit", ".exit", "\\q" -> {
                return Outcome.QUIT;
            }
            case ".help", "\\?" -> out.print(HELP);
            case ".tables", "\\dt" -> listing.accept("SHOW TABLES");
            case "\\d" -> listing.accept(argument.isEmpty() ? "SHOW TABLES" : describe(command, argument));
            case ".schema" -> listing.accept(argument.isEmpty() ? ALL_COLUMNS : describe(command, argument));
            case ".mode" -> mode(argument);
            case ".maxrows" -> maxRows(argument);
            case ".timer" -> timer(argument);
            case ".read" -> read(argument);
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown command '" + words[0] + "'; .help lists the commands");
        }
        out.flush();
        return Outcome.CONTINUE;
    }

    private static Pattern qualifiedName(String name) {
        return Pattern.compile(name + "(?:\\s*\\.\\s*" + name + ")?");
    }

    /** {@code DESCRIBE name}, for a name and nothing else (a trailing {@code ;} aside). */
    private static String describe(String command, String argument) {
        String name = argument.endsWith(";") ? argument.substring(0, argument.length() - 1).strip() : argument;
        if (!TABLE_NAME.matcher(name).matches()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, command + " takes the name of a table or view, not '" + argument + "'");
        }
        return "DESCRIBE " + name;
    }

    private void mode(String argument) {
        if (argument.isEmpty()) {
            out.println(state.format().name().toLowerCase(Locale.ROOT));
            return;
        }
        try {
            state.format(OutputFormat.valueOf(argument.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown mode '" + argument + "'; choose one of "
                    + String.join(", ", Arrays.stream(OutputFormat.values()).map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
        }
    }

    private void maxRows(String argument) {
        if (argument.isEmpty()) {
            out.println(state.maxRows());
            return;
        }
        if (!argument.matches("\\d{1,9}")) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, ".maxrows takes a number of rows (0 for all), not '" + argument + "'");
        }
        state.maxRows(Integer.parseInt(argument));
    }

    private void timer(String argument) {
        switch (argument.toLowerCase(Locale.ROOT)) {
            case "on" -> state.timer(true);
            case "off" -> state.timer(false);
            case "" -> out.println(state.timer() ? "on" : "off");
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, ".timer takes on or off, not '" + argument + "'");
        }
    }

    private void read(String argument) {
        if (argument.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, ".read takes a file name");
        }
        Path file = Path.of(argument.startsWith("'") && argument.endsWith("'") && argument.length() > 1
                ? argument.substring(1, argument.length() - 1) : argument);
        String script;
        try {
            script = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Cannot read '" + file + "': no such file");
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Cannot read '" + file + "': " + e.getMessage());
        }
        scriptRunner.accept(script);
    }
}
