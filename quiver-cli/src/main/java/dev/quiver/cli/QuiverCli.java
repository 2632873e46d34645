package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
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
        subcommands = {SqlCommand.class, DemoCommand.class, BenchCommand.class, TpchGenCommand.class, WorkerCommand.class, CommandLine.HelpCommand.class},
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

    /**
     * A configured command line writing to {@code out} and {@code err}; call
     * {@link CommandLine#execute} on it.
     */
    public static CommandLine commandLine(InputStream stdin, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new QuiverCli(stdin));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler(new ErrorReporter());
        commandLine.setParameterExceptionHandler(new ErrorReporter());
        return commandLine;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int exitCode = commandLine(System.in, out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }
}
