package dev.quiver.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code quiver bench}: benchmarks, {@code quiver bench tpch}, {@code quiver bench window} and {@code quiver bench server}. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Runs a benchmark.",
        subcommands = {BenchTpchCommand.class, BenchWindowCommand.class, BenchServerCommand.class})
final class BenchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
