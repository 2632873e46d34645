package dev.quiver.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process with captured streams, as {@code main} would but without exiting. */
final class CliRunner {
    private CliRunner() {}

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err) {}

    static Run run(String... args) {
        return runWithStdin("", args);
    }

    static Run runWithStdin(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = QuiverCli.commandLine(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true),
                new PrintWriter(err, true)).execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
