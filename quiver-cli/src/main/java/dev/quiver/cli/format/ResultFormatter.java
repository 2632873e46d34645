package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Writes a query result in one output format, either whole or as its rows arrive. */
public interface ResultFormatter {
    /**
     * Starts a result with these columns on {@code out}; rows follow through the returned writer.
     * Formats that can write as rows arrive (CSV, JSON) do; the table buffers until the end.
     */
    RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out);

    /**
     * Writes {@code result} to {@code out}. {@code elapsed} is the query's wall time; formats meant
     * for machines leave it out.
     */
    default void write(ResultTable result, Duration elapsed, PrintWriter out) {
        RowWriter writer = open(result.columnNames(), result.columnTypes(), out);
        writer.writeRows(result.rows());
        writer.finish(elapsed);
    }

    /** Receives the rows of one result, then its end. */
    interface RowWriter {
        /** Rows as Java values, in the column order the writer was opened with. */
        void writeRows(List<List<Object>> rows);

        /** Ends the result; {@code elapsed} is the wall time of the statements. */
        void finish(Duration elapsed);
    }
}
