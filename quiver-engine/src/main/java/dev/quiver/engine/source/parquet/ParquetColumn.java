package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnDescriptor;

/**
 * One top-level column of a Parquet file as Quiver reads it: the Arrow field it becomes, the
 * Parquet column it comes from, and how its physical values are decoded.
 *
 * @param field the Quiver field (name, type, nullability)
 * @param descriptor the Parquet leaf column
 * @param kind how to turn physical values into the field's type
 */
record ParquetColumn(Field field, ColumnDescriptor descriptor, ValueKind kind) {
    ParquetColumn {
        requireNonNull(field, "field is null");
        requireNonNull(descriptor, "descriptor is null");
        requireNonNull(kind, "kind is null");
    }

    String name() {
        return field.getName();
    }

    /** How the physical values of a column map to a Quiver type. */
    enum ValueKind {
        BOOLEAN,
        INT32,
        /** An unsigned 32-bit or smaller integer, widened to BIGINT. */
        UINT32,
        INT64,
        FLOAT,
        DOUBLE,
        DATE,
        DECIMAL_INT32,
        DECIMAL_INT64,
        /** A decimal stored as big-endian two's complement bytes (BINARY or FIXED_LEN_BYTE_ARRAY). */
        DECIMAL_BYTES,
        STRING,
        TIMESTAMP_MILLIS,
        TIMESTAMP_MICROS,
        TIMESTAMP_NANOS
    }
}
