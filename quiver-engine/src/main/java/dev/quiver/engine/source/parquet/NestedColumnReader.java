package dev.quiver.engine.source.parquet;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnReadStore;

/** Reads a nested (LIST, MAP, STRUCT) Parquet column into Arrow vectors by record assembly. */
final class NestedColumnReader {
    private final ParquetColumn column;

    NestedColumnReader(ParquetColumn column, ColumnReadStore store) {
        this.column = column;
    }

    void read(FieldVector vector, int count) {
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "nested column '" + column.name() + "' cannot be read yet");
    }
}
