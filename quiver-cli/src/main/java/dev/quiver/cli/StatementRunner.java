package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.OutputFormat;
import dev.quiver.cli.format.ResultFormatter.RowWriter;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import dev.quiver.session.ScriptStatement;
import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Runs statements on a session and prints each one's result as it arrives, in one output format:
 * what batch mode ({@code -f}, standard input) and the interactive shell share. Failures propagate
 * as {@link dev.quiver.engine.error.QuiverException}s with the statement's position in its script.
 */
final class StatementRunner {
    private final QuerySession session;
    private final PrintWriter out;

    StatementRunner(QuerySession session, PrintWriter out) {
        this.session = requireNonNull(session, "session is null");
        this.out = requireNonNull(out, "out is null");
    }

    /**
     * Runs every statement of {@code script} in order, printing each result; stops at the first
     * failure, which is thrown. Returns false if the output went away (e.g. {@code | head}).
     */
    boolean runScript(String script, OutputFormat format) {
        for (ScriptStatement statement : ScriptStatement.split(script)) {
            if (!run(statement, format)) {
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
    boolean run(ScriptStatement statement, OutputFormat format) {
        try (QueryHandle handle = session.execute(statement); BatchStream results = handle.stream()) {
            RowWriter writer = format.formatter().open(handle.columnNames(), types(handle.schema()), out);
            VectorSchemaRoot batch;
            while ((batch = results.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    writer.writeRows(Batches.toRows(owned));
                }
                if (out.checkError()) {
                    handle.cancel();
                    return false;
                }
            }
            writer.finish(handle.elapsed());
            return !out.checkError();
        }
    }

    private static List<ArrowType> types(Schema schema) {
        return schema.getFields().stream().map(Field::getType).toList();
    }
}
