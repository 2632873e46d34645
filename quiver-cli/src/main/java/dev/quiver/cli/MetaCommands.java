package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.OutputFormat;
import dev.quiver.cli.format.ResultTable;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.session.QuerySession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The shell's own commands, which are not SQL: a line starting with {@code .} or {@code \}, as in
 * DuckDB's and psql's shells. They read the session (tables, views, columns) and change the shell's
 * {@link ShellState}; {@code .read} runs a file's statements through the shell.
 */
final class MetaCommands {
    /** Every command, for completion and {@code .help}. */
    static final List<String> NAMES = List.of(".help", ".tables", ".schema", ".mode", ".maxrows", ".timer", ".read", ".quit", ".exit",
            "\\d", "\\dt", "\\q", "\\?");

    static final String HELP = String.join("\n",
            "SQL statements end with ';' and may span lines. Ctrl-C cancels a running query (or clears the line), Ctrl-D quits.",
            ".tables, \\d          list the tables and views",
            ".schema [NAME], \\d NAME   the columns of a table or view (all of them without NAME)",
            ".mode [table|csv|json|markdown|line]   the output format (shows it without an argument)",
            ".maxrows [N]         rows a table shows, the first and the last ones (0: all; default 40)",
            ".timer on|off        print each statement's time",
            ".read FILE           run the statements of FILE",
            ".help, \\?           this help",
            ".quit, .exit, \\q    leave the shell (Ctrl-D too)",
            "");

    /** What the shell does after a command. */
    enum Outcome {
        CONTINUE,
        QUIT
    }

    private final QuerySession session;
    private final ShellState state;
    private final PrintWriter out;
    private final IntSupplier width;
    private final Consumer<String> scriptRunner;

    /**
     * Commands on {@code session} changing {@code state}, printing on {@code out} (a terminal
     * {@code width} characters wide); {@code scriptRunner} runs the text of a {@code .read} file.
     */
    MetaCommands(QuerySession session, ShellState state, PrintWriter out, IntSupplier width, Consumer<String> scriptRunner) {
        this.session = requireNonNull(session, "session is null");
        this.state = requireNonNull(state, "state is null");
        this.out = requireNonNull(out, "out is null");
        this.width = requireNonNull(width, "width is null");
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
            case ".tables", "\\dt" -> tables();
            case "\\d" -> {
                if (argument.isEmpty()) {
                    tables();
                } else {
                    schema(argument);
                }
            }
            case ".schema" -> schema(argument);
            case ".mode" -> mode(argument);
            case ".maxrows" -> maxRows(argument);
            case ".timer" -> timer(argument);
            case ".read" -> read(argument);
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown command '" + words[0] + "'; .help lists the commands");
        }
        out.flush();
        return Outcome.CONTINUE;
    }

    private void tables() {
        List<List<Object>> rows = new ArrayList<>();
        for (SchemaNames.Table table : SchemaNames.all(session)) {
            rows.add(List.of(table.name(), table.kind()));
        }
        print(new ResultTable(List.of("name", "kind"), List.of(QuiverTypes.UTF8, QuiverTypes.UTF8), rows));
    }

    private void schema(String name) {
        List<SchemaNames.Table> tables = name.isEmpty() ? SchemaNames.all(session) : List.of(SchemaNames.describe(session, name));
        List<List<Object>> rows = new ArrayList<>();
        for (SchemaNames.Table table : tables) {
            for (SchemaNames.Column column : table.columns()) {
                List<Object> row = new ArrayList<>();
                if (name.isEmpty()) {
                    row.add(table.name());
                }
                row.add(column.name());
                row.add(QuiverTypes.sqlName(column.type()));
                row.add(column.nullable() ? "YES" : "NO");
                rows.add(row);
            }
        }
        List<String> names = new ArrayList<>(List.of("column_name", "column_type", "null"));
        if (name.isEmpty()) {
            names.add(0, "table_name");
        }
        print(new ResultTable(names, names.stream().map(n -> QuiverTypes.UTF8).toList(), rows));
    }

    private void print(ResultTable table) {
        // every row: a listing is short, and cutting it would hide names
        state.format().formatter(state.display(width.getAsInt()).withMaxRows(0).withTimer(false)).write(table, Duration.ZERO, out);
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
