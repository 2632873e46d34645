package dev.quiver.cli;

import dev.quiver.cli.format.Display;
import dev.quiver.cli.format.OutputFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.files.TpchFiles;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.session.QuerySession;
import dev.quiver.session.ScriptStatement;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code quiver sql}: runs SQL statements and prints the result of each. */
@Command(
        name = "sql",
        mixinStandardHelpOptions = true,
        description = {
            "Runs SQL and prints the result of each statement.",
            "The SQL comes from the arguments, from -f FILE, from --tpch-query N, or else from standard input; it may hold "
                    + "several statements separated by ';' (e.g. CREATE VIEW ...; SELECT ...). Without SQL, with a terminal as "
                    + "standard input and output, it is an interactive shell (.help lists its commands).",
        },
        footer = {
            "",
            "Examples:",
            "  quiver sql --tpch 0.01 \"select count(*) from lineitem\"",
            "  quiver sql --table sales=data/sales.csv \"select region, sum(amount) from sales group by region\"",
            "  quiver sql --tpch 0.01                  (no SQL, in a terminal: the interactive shell)",
            "  quiver sql --tpch-dir /tmp/tpch-sf1 -f script.sql",
            "  quiver sql --tpch 1 --format csv --tpch-query 1 > q1.csv",
            "  echo \"select n_name from nation order by 1\" | quiver sql --tpch 0.01",
            "  quiver sql --tpch 0.1 --local-workers 4 \"explain analyze select l_returnflag, count(*) from lineitem group by 1\"",
            "  quiver sql --tpch 0.1 --workers 127.0.0.1:7001,127.0.0.1:7002 --set distributed.compression=zstd --tpch-query 3",
            "  quiver sql --tpch 0.01 --explain-format dot \"explain select count(*) from orders\" | dot -Tsvg > plan.svg",
        })
final class SqlCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ParentCommand
    private QuiverCli parent;

    @Mixin
    private EngineOptions engine;

    @Option(names = "--tpch", paramLabel = "SF",
            description = "Query the TPC-H tables (lineitem, orders, ...) generated at scale factor SF, e.g. 0.01 or 1.")
    private Double tpchScaleFactor;

    @Option(names = "--table", paramLabel = "NAME=PATH",
            description = "Register the file or directory PATH as table NAME (repeatable). The format comes from the "
                    + "extension: .parquet, .arrow/.feather, .csv; a directory's from its files'.")
    private Map<String, Path> tables = new LinkedHashMap<>();

    @Option(names = "--tpch-dir", paramLabel = "DIR",
            description = "Register the eight TPC-H tables from DIR (as written by quiver tpch-gen).")
    private Path tpchDir;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", completionCandidates = FormatNames.class,
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). "
                    + "json prints one JSON object per row (JSON Lines).")
    private OutputFormat format;

    @Option(names = "--explain-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "How EXPLAIN shows plans: text, dot (Graphviz DOT, printed as it is: | dot -Tsvg > plan.svg), "
                    + "or svg (rendered by Graphviz's dot, which must be installed) (default: ${DEFAULT-VALUE}).")
    private ExplainOutput explainFormat;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Read the SQL from FILE ('-' for standard input).")
    private Path file;

    @Option(names = "--tpch-query", paramLabel = "N",
            description = "Run TPC-H query N (1 to 22, the text with the standard parameters) on the --tpch or --tpch-dir tables.")
    private Integer tpchQuery;

    @Parameters(paramLabel = "SQL", arity = "0..*",
            description = "The SQL to run; several words are joined with spaces.")
    private List<String> sqlWords;

    @Option(names = "--maxrows", paramLabel = "N", defaultValue = "40",
            description = "Rows the table format shows of a result, the first and the last ones (0: all; default: ${DEFAULT-VALUE}); "
                    + "the other formats print every row.")
    private int maxRows;

    @Option(names = "--server", paramLabel = "HOST:PORT",
            description = "Run the SQL on a Quiver server (quiver server) instead of in this process; see docs/server.md.")
    private String server;

    @Mixin
    private ServerClientOptions serverClient;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (maxRows < 0) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--maxrows': " + maxRows + " (0 shows every row)");
        }
        if (server != null) {
            try (RemoteSql remote = new RemoteSql(WorkerAddress.parse(server), serverClient, spec.commandLine().getOut())) {
                remote.runScript(readSql(), format, new Display(maxRows, 0, true));
            }
            return 0;
        }
        Catalog catalog = catalog();
        if (isInteractive()) {
            try (QuerySession session = engine.newSession(catalog, explainFormat.sessionFormat())) {
                registerTables(session);
                Shell.run(session, new ShellState(format, maxRows, true), explainFormat, VersionInfo.quiverVersion());
            }
            return 0;
        }
        String sql = readSql();
        try (QuerySession session = engine.newSession(catalog, explainFormat.sessionFormat())) {
            registerTables(session);
            if (ScriptStatement.split(sql).isEmpty()) {
                throw new QuiverException(ErrorCode.SYNTAX_ERROR, "The script holds no statement");
            }
            runBatch(session, sql);
        }
        return 0;
    }

    /**
     * Prints every statement's result. On a terminal the table fits its width, and a query running
     * longer than a second shows its progress on stderr (when that is a terminal).
     */
    private void runBatch(QuerySession session, String sql) {
        boolean systemStreams = parent.stdin() == System.in;
        int width = 0;
        if (systemStreams && format == OutputFormat.TABLE) {
            // $COLUMNS fits even piped output; otherwise only a terminal has a width
            width = Terminals.columnsVariable().orElseGet(() -> Terminals.isTerminal(Terminals.STDOUT) ? Terminals.width() : 0);
        }
        Optional<ProgressLine> progress = Optional.empty();
        if (systemStreams && Terminals.isTerminal(Terminals.STDERR)) {
            int errWidth = width > 0 ? width : Terminals.width();
            progress = Optional.of(new ProgressLine(spec.commandLine().getErr(), () -> errWidth));
        }
        try {
            // warnings go to stderr, so that stdout holds only results
            new StatementRunner(session, spec.commandLine().getOut(), spec.commandLine().getErr(), progress, explainFormat)
                    .runScript(sql, format, new Display(maxRows, width, true));
        } finally {
            progress.ifPresent(ProgressLine::close);
        }
    }

    /** The shell runs when no SQL is given and this process's standard input and output are a terminal. */
    private boolean isInteractive() {
        boolean hasWords = sqlWords != null && !sqlWords.isEmpty();
        return !hasWords && file == null && tpchQuery == null && parent.stdin() == System.in
                && Terminals.isTerminal(Terminals.STDIN) && Terminals.isTerminal(Terminals.STDOUT);
    }

    private Catalog catalog() {
        if (tpchScaleFactor != null && tpchDir != null) {
            throw new ParameterException(spec.commandLine(), "Give either --tpch SF (generated tables) or --tpch-dir DIR (files), not both");
        }
        if (tpchScaleFactor == null) {
            return new EmptyCatalog();
        }
        if (!(tpchScaleFactor > 0)) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--tpch': " + tpchScaleFactor + " (the scale factor must be positive)");
        }
        return new TpchCatalog(tpchScaleFactor);
    }

    /** Opens the --tpch-dir and --table files (reading their footers or a CSV sample). */
    private void registerTables(QuerySession session) {
        if (tpchDir != null) {
            TpchFiles.open(tpchDir).forEach(session::registerTable);
        }
        tables.forEach((name, path) -> session.registerTable(FileTables.open(name, path, Optional.empty(), Optional.empty())));
    }

    private String readSql() throws IOException {
        boolean hasWords = sqlWords != null && !sqlWords.isEmpty();
        if ((hasWords ? 1 : 0) + (file != null ? 1 : 0) + (tpchQuery != null ? 1 : 0) > 1) {
            throw new ParameterException(spec.commandLine(), "Give the SQL one way: as an argument, with -f FILE, or with --tpch-query N");
        }
        if (tpchQuery != null) {
            return tpchQuery();
        }
        String sql;
        if (hasWords) {
            sql = String.join(" ", sqlWords);
        } else if (file != null && !file.toString().equals("-")) {
            sql = readFile(file);
        } else {
            sql = readStdin();
        }
        if (sql.isBlank()) {
            throw new ParameterException(spec.commandLine(),
                    "No SQL given: pass it as an argument, with -f FILE, or on standard input");
        }
        return sql;
    }

    private String tpchQuery() {
        if (tpchScaleFactor == null && tpchDir == null) {
            throw new ParameterException(spec.commandLine(), "--tpch-query needs the TPC-H tables: add --tpch SF (e.g. --tpch 0.01) or --tpch-dir DIR");
        }
        if (tpchQuery < 1 || tpchQuery > 22) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--tpch-query': " + tpchQuery + " (TPC-H queries are numbered 1 to 22)");
        }
        return TpchQueries.query(tpchQuery);
    }

    private String readFile(Path path) throws IOException {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ParameterException(spec.commandLine(), "Cannot read SQL file '" + path + "': no such file");
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "Cannot read SQL file '" + path + "': " + e.getMessage());
        }
    }

    private String readStdin() throws IOException {
        InputStream in = parent.stdin();
        if (in == System.in && Terminals.isTerminal(Terminals.STDIN)) {
            // a terminal, but output goes elsewhere: no shell, the statements are read to the end
            PrintWriter err = spec.commandLine().getErr();
            err.println("Reading SQL from standard input; end it with Ctrl-D. (quiver sql --help for more.)");
            err.flush();
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** The format names as users write them, for the help text. */
    static final class FormatNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(OutputFormat.values()).map(f -> f.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }
}
