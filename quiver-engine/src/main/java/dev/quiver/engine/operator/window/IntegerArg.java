package dev.quiver.engine.operator.window;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;

/** Reads an integer argument (an offset, a position, a bucket count) of a window function, row by row. */
final class IntegerArg {
    private final FieldVector vector;
    private final BaseIntVector ints;

    IntegerArg(FieldVector vector) {
        this.vector = vector;
        this.ints = vector instanceof BaseIntVector i ? i : null;
        if (ints == null && !(vector instanceof org.apache.arrow.vector.NullVector)) {
            throw new IllegalArgumentException("not an integer vector: " + vector.getField());
        }
    }

    boolean isNull(int row) {
        return ints == null || vector.isNull(row);
    }

    long get(int row) {
        return ints.getValueAsLong(row);
    }
}
