package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.time.Duration;

/** Writes a query result in one output format. */
public interface ResultFormatter {
    /**
     * Writes {@code result} to {@code out}. {@code elapsed} is the query's wall time; formats meant
     * for machines leave it out.
     */
    void write(ResultTable result, Duration elapsed, PrintWriter out);
}
