package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.Type;

/**
 * One top-level column of a Parquet file as Quiver reads it: the Arrow field it becomes, the
 * Parquet column it comes from, and how its physical values are decoded.
 *
 * @param field the Quiver field (name, type, nullability)
 * @param type the column's Parquet type (a primitive, or a group for a nested column)
 * @param leaves the Parquet leaf columns under it, in schema order (one for a flat column)
 * @param kind how to turn physical values into the field's type
 */
record ParquetColumn(Field field, Type type, List<ColumnDescriptor> leaves, ValueKind kind) {
    ParquetColumn {
        requireNonNull(field, "field is null");
        requireNonNull(type, "type is null");
        leaves = List.copyOf(requireNonNull(leaves, "leaves is null"));
        requireNonNull(kind, "kind is null");
    }

    /** A flat column: one leaf. */
    ParquetColumn(Field field, Type type, ColumnDescriptor descriptor, ValueKind kind) {
        this(field, type, List.of(descriptor), kind);
    }

    String name() {
        return field.getName();
    }

    /** The leaf of a flat column. */
    ColumnDescriptor descriptor() {
        if (isNested()) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "nested Parquet column '" + name() + "' has no single leaf");
        }
        return leaves.get(0);
    }

    /** A LIST, MAP or STRUCT column, read by record assembly ({@link NestedColumnReader}). */
    boolean isNested() {
        return kind == ValueKind.NESTED;
    }

    /** Whether the chunk at {@code path} belongs to this column. */
    boolean contains(ColumnPath path) {
        return path.toArray()[0].equals(type.getName());
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
        TIMESTAMP_NANOS,
        /** A group (LIST, MAP or STRUCT), read as Arrow list, map or struct values. */
        NESTED
    }
}
