package dev.quiver.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process with captured streams, as {@code main} would but without exiting. */
final class CliRunner {
    private CliRunner() {}

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err) {
        Run withOut(String text) {
            return new Run(exitCode, text, err);
        }
    }

    static Run run(String... args) {
        return runWithStdin("", args);
    }

    static Run runWithStdin(String stdin, String... args) {
        StringWriter out = new StringWriter();
        return runWithOut(stdin, out, args).withOut(out.toString());
    }

    /** Runs with standard output going to {@code out}; the returned run's {@code out} is empty. */
    static Run runWithOut(String stdin, Writer out, String... args) {
        StringWriter err = new StringWriter();
        int exitCode = QuiverCli.commandLine(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true),
                new PrintWriter(err, true)).execute(args);
        return new Run(exitCode, "", err.toString());
    }
}
