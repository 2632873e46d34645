package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.Display;
import dev.quiver.cli.format.OutputFormat;
import dev.quiver.cli.format.ResultFormatter;
import dev.quiver.cli.format.ResultFormatter.RowWriter;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import dev.quiver.session.ScriptStatement;
import dev.quiver.session.SessionSettings;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Runs statements on a session and prints each one's result as it arrives, in one output format:
 * what batch mode ({@code -f}, standard input) and the interactive shell share. Failures propagate
 * as {@link dev.quiver.engine.error.QuiverException}s with the statement's position in its script.
 *
 * <p>After a result, each of its warnings ({@link QueryHandle#warnings()}, e.g. rows
 * {@code ignore_errors} skipped) prints as a {@code Warning: } line to the warnings writer: stderr
 * in batch mode, so that stdout holds only results, and the terminal in the shell.
 *
 * <p>With a {@link ProgressLine}, a query running longer than a second shows its progress until
 * its result starts to print. {@link #cancelRunning()} (Ctrl-C in the shell) stops the statement
 * running now, which then fails with {@code QUERY_CANCELLED}.
 */
final class StatementRunner {
    private final QuerySession session;
    private final PrintWriter out;
    private final PrintWriter warnings;
    private final Optional<ProgressLine> progress;
    private final ExplainOutput explainOutput;
    private volatile QueryHandle running;

    StatementRunner(QuerySession session, PrintWriter out, PrintWriter warnings, Optional<ProgressLine> progress, ExplainOutput explainOutput) {
        this.session = requireNonNull(session, "session is null");
        this.out = requireNonNull(out, "out is null");
        this.warnings = requireNonNull(warnings, "warnings is null");
        this.progress = requireNonNull(progress, "progress is null");
        this.explainOutput = requireNonNull(explainOutput, "explainOutput is null");
    }

    /**
     * Runs every statement of {@code script} in order, printing each result; stops at the first
     * failure, which is thrown. Returns false if the output went away (e.g. {@code | head}).
     */
    boolean runScript(String script, OutputFormat format, Display display) {
        for (ScriptStatement statement : ScriptStatement.split(script)) {
            if (!run(statement, format, display)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs one statement and hands its rows to the formatter a batch at a time, so that CSV and
     * JSON output of any size never holds the whole result on the heap. Stops early, cancelling the
     * query and returning false, when the output is gone (e.g. {@code | head}).
     */
    boolean run(ScriptStatement statement, OutputFormat format, Display display) {
        try (QueryHandle handle = session.execute(statement)) {
            running = handle;
            Optional<ProgressLine.Ticket> ticket = progress.map(line -> line.show(handle));
            // the wrapper is not closed: closing it would flush only, and out belongs to the caller
            PrintWriter result = ticket.isPresent() ? new PrintWriter(new BeforeFirstWrite(out, ticket.get()::erase)) : out;
            try {
                return print(handle, format, display, result);
            } finally {
                result.flush();
                ticket.ifPresent(ProgressLine.Ticket::erase);
                running = null;
            }
        }
    }

    private boolean print(QueryHandle handle, OutputFormat format, Display display, PrintWriter result) {
        if (handle.explainFormat().equals(Optional.of(SessionSettings.ExplainFormat.DOT)) && printsGraphsRaw(format)) {
            return printGraph(handle, result);
        }
        ResultFormatter formatter = format.formatter(display);
        try (BatchStream results = handle.stream()) {
            RowWriter writer = formatter.open(handle.columnNames(), types(handle.schema()), result);
            VectorSchemaRoot batch;
            while ((batch = results.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    writer.writeRows(Batches.toRows(owned));
                }
                if (outputGone(result)) {
                    handle.cancel();
                    return false;
                }
            }
            writer.finish(handle.elapsed());
        }
        boolean printed = !outputGone(result);
        printWarnings(handle);
        return printed;
    }

    private void printWarnings(QueryHandle handle) {
        List<QueryWarning> found = handle.warnings();
        for (QueryWarning warning : found) {
            warnings.println("Warning: " + warning.message());
        }
        if (!found.isEmpty()) {
            warnings.flush();
        }
    }

    /**
     * A graph prints as it is (or as SVG with {@code --explain-format svg}), so that it pipes into
     * {@code dot}; CSV and JSON keep it a value, as they keep every result data.
     */
    private boolean printsGraphsRaw(OutputFormat format) {
        return explainOutput == ExplainOutput.SVG || (format != OutputFormat.CSV && format != OutputFormat.JSON);
    }

    private boolean printGraph(QueryHandle handle, PrintWriter result) {
        StringBuilder graph = new StringBuilder();
        try (BatchStream results = handle.stream()) {
            VectorSchemaRoot batch;
            while ((batch = results.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    Batches.toRows(owned).forEach(row -> graph.append(row.get(0)));
                }
            }
        }
        String text = explainOutput == ExplainOutput.SVG ? Graphviz.svg(Graphviz.command(), graph.toString()) : graph.toString();
        result.print(text.endsWith("\n") ? text : text + "\n");
        return !outputGone(result);
    }

    /** Whether writing failed (a closed pipe), checked on the caller's writer: a wrapper does not see it. */
    private boolean outputGone(PrintWriter result) {
        result.flush();
        return out.checkError();
    }

    /** Stops the statement running now, if any: its stream fails with {@code QUERY_CANCELLED}. Safe from any thread. */
    void cancelRunning() {
        QueryHandle handle = running;
        if (handle != null) {
            handle.cancel();
        }
    }

    private static List<ArrowType> types(Schema schema) {
        return schema.getFields().stream().map(Field::getType).toList();
    }
}
