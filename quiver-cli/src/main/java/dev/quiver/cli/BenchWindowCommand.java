package dev.quiver.cli;

import dev.quiver.bench.BenchOptions;
import dev.quiver.bench.WindowBench;
import dev.quiver.engine.error.QuiverException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver bench window}: a running sum over lineitem on Quiver and on DuckDB in this process
 * ({@link WindowBench}). Exits 1 when an engine fails or the engines' results differ.
 */
@Command(
        name = "window",
        mixinStandardHelpOptions = true,
        description = {
            "Runs " + WindowBench.WINDOW + " over TPC-H lineitem warm on Quiver and on DuckDB (in this process, with the same "
                    + "thread count, the window's output summed on both) and prints both median times, their ratio and the load average.",
        },
        footer = {"", "Example:", "  quiver bench window --sf 1", "  quiver bench window --sf 0.1 --runs 5"})
final class BenchWindowCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private BenchRunOptions runOptions;

    @Override
    public Integer call() {
        BenchOptions options;
        try {
            options = runOptions.apply(BenchOptions.defaults(), 3L << 30);
        } catch (QuiverException e) {
            throw new ParameterException(spec.commandLine(), "Invalid benchmark options: " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        WindowBench.Result result;
        try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8)) {
            result = WindowBench.run(options, stream);
        }
        if (!result.error().isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("Error: the window benchmark failed: " + result.error());
            err.flush();
            return ErrorReporter.FAILURE;
        }
        return 0;
    }
}
