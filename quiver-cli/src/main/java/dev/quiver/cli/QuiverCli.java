package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.session.QuerySession;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code quiver} command. {@link #main} is the only place that exits the JVM; everything else
 * returns an exit code through {@link #execute}: 0 on success, 1 when a statement or the engine
 * fails, 2 for bad arguments.
 */
@Command(
        name = "quiver",
        mixinStandardHelpOptions = true,
        versionProvider = VersionInfo.class,
        description = "Quiver: a SQL query engine for the JVM on Apache Arrow.",
        footer = {"", "Run 'quiver COMMAND --help' for the options of a command."})
public final class QuiverCli implements Callable<Integer> {
    private final InputStream stdin;

    @Spec
    private CommandSpec spec;

    /** A CLI that reads SQL from {@code stdin} when a command is given none. */
    public QuiverCli(InputStream stdin) {
        this.stdin = requireNonNull(stdin, "stdin is null");
    }

    InputStream stdin() {
        return stdin;
    }

    @Override
    public Integer call() {
        // `quiver` alone: say what there is to run
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    /** The commands, by name, in the order the usage lists them. */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("sql", SqlCommand::new);
        commands.put("demo", DemoCommand::new);
        commands.put("bench", BenchCommand::new);
        commands.put("tpch-gen", TpchGenCommand::new);
        commands.put("worker", WorkerCommand::new);
        commands.put("server", ServerCommand::new);
        commands.put("passwd", PasswdCommand::new);
        commands.put("help", CommandLine.HelpCommand::new);
        return Collections.unmodifiableMap(commands);
    }

    /**
     * Initialises the SQL planner on a second thread while this one parses the arguments and builds
     * the session: on two cores that takes a third off a short statement's start. The thread is a
     * daemon and ends once the planner is ready (or with the JVM).
     */
    private static void warmUpPlannerInBackground() {
        Thread warmUp = new Thread(QuerySession::warmUpPlanner, "quiver-planner-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /**
     * A configured command line with every command, writing to {@code out} and {@code err}; call
     * {@link CommandLine#execute} on it.
     */
    public static CommandLine commandLine(InputStream stdin, PrintWriter out, PrintWriter err) {
        return commandLine(stdin, out, err, COMMANDS.keySet());
    }

    /**
     * The command line to run {@code args}: with only the command they name when they name one,
     * since picocli reads the options of every command it is given by reflection, which is a good
     * part of a short run's start; with every command otherwise (for usage and suggestions).
     */
    static CommandLine commandLineFor(InputStream stdin, PrintWriter out, PrintWriter err, String[] args) {
        if (args.length > 0 && COMMANDS.containsKey(args[0]) && !args[0].equals("help")) {
            return commandLine(stdin, out, err, Set.of(args[0]));
        }
        return commandLine(stdin, out, err);
    }

    private static CommandLine commandLine(InputStream stdin, PrintWriter out, PrintWriter err, Set<String> names) {
        CommandLine commandLine = new CommandLine(new QuiverCli(stdin));
        COMMANDS.forEach((name, command) -> {
            if (names.contains(name)) {
                commandLine.addSubcommand(name, command.get());
            }
        });
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler(new ErrorReporter());
        commandLine.setParameterExceptionHandler(new ErrorReporter());
        return commandLine;
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("sql")) {
            warmUpPlannerInBackground();
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int exitCode = commandLineFor(System.in, out, err, args).execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }
}
