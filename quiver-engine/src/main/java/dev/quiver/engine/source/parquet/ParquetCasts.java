package dev.quiver.engine.source.parquet;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;

/** The vectors a Parquet scan makes besides decoded ones: repeated constants, and file columns widened to the table's type. */
final class ParquetCasts {
    private ParquetCasts() {}

    /** {@code value} (NULL when null) in {@code count} rows, as a vector of {@code field}'s type. */
    static FieldVector constant(Field field, Object value, int count, BufferAllocator allocator) {
        FieldVector vector = field.createVector(allocator);
        try {
            vector.setInitialCapacity(count);
            vector.allocateNew();
            // a fresh vector's validity bits are clear: without a value every row is NULL already
            if (value != null) {
                for (int i = 0; i < count; i++) {
                    VectorValues.set(vector, i, value);
                }
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /** Whether a file's column of type {@code file} widens to the table's {@code table} (union_by_name). */
    static boolean canCast(Field file, Field table) {
        if (!file.getChildren().isEmpty() || !table.getChildren().isEmpty()) {
            return false;
        }
        try {
            return QuiverTypes.commonType(file.getType(), table.getType()).equals(table.getType());
        } catch (QuiverException e) {
            return false;
        }
    }

    /** {@code vector} (closed here) cast to {@code field}'s type, named as {@code field}. */
    static FieldVector cast(FieldVector vector, Field field, int count, BufferAllocator allocator) {
        try (VectorSchemaRoot input = new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), count)) {
            ColumnExpr column = new ColumnExpr(0, vector.getField().getName(), vector.getField().getType(), true);
            FieldVector cast = new CastExpr(column, field.getType()).evaluate(input, allocator);
            FieldVector named = field.createVector(allocator);
            TransferPair transfer = cast.makeTransferPair(named);
            transfer.transfer();
            cast.close();
            return named;
        }
    }
}
