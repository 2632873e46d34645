package dev.quiver.server;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The parameter values a client binds to a prepared statement: the DoPut's batches, in the
 * parameter schema the server announced, one row per execution. Quiver runs a query once per
 * execution, so exactly one row is accepted.
 */
final class ParameterValues {
    private ParameterValues() {}

    /** The values of the one row the stream holds (empty when it holds none), each as {@code QueryParameters.bind} takes it. */
    static List<Object> read(FlightStream stream) {
        List<Object> values = List.of();
        int rows = 0;
        while (stream.next()) {
            VectorSchemaRoot root = stream.getRoot();
            for (int r = 0; r < root.getRowCount(); r++) {
                rows++;
                values = row(root, r);
            }
        }
        if (rows > 1) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "A query runs with one set of parameter values at a time; "
                    + rows + " were bound (executeBatch is for updates)");
        }
        return values;
    }

    private static List<Object> row(VectorSchemaRoot root, int index) {
        List<Object> values = new ArrayList<>();
        for (FieldVector vector : root.getFieldVectors()) {
            values.add(value(vector, index));
        }
        return values;
    }

    private static Object value(FieldVector vector, int index) {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof VarCharVector text) {
            return text.getObject(index).toString();
        }
        if (vector instanceof DateDayVector date) {
            return LocalDate.ofEpochDay(date.get(index));
        }
        if (vector instanceof TimeStampVector timestamp) {
            return timestamp.getObject(index);
        }
        return vector.getObject(index);
    }
}
