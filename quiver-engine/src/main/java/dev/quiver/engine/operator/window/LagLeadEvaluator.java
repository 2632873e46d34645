package dev.quiver.engine.operator.window;

import dev.quiver.engine.operator.sort.MultiTake;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@code LAG} and {@code LEAD}: for each row the value {@code offset} rows before (LAG) or after
 * (LEAD) it in its partition — counting only non-NULL values with {@code IGNORE NULLS} — or the
 * default (evaluated on the current row) when the partition has no such row. Offset and default
 * are expressions, evaluated per row.
 */
final class LagLeadEvaluator implements WindowEvaluator {
    private static final int VALUE = 0;
    private static final int DEFAULT = 1;

    private final WindowFunction.LagLead function;
    private final WindowChunk chunk;
    private final PartitionLayout layout;
    private final FieldVector values;
    private final IntegerArg offsets;
    private final FieldVector defaults;
    private final NonNullRows nonNull;
    private final Schema schema;

    LagLeadEvaluator(WindowFunction.LagLead function, WindowChunk chunk, Field field) {
        this.function = function;
        this.chunk = chunk;
        this.layout = chunk.layout();
        this.values = chunk.column(function.value());
        this.offsets = new IntegerArg(chunk.column(function.offset()));
        this.defaults = chunk.column(function.defaultValue());
        if (function.ignoreNulls()) {
            chunk.reserve(NonNullRows.estimateBytes(chunk.rows()));
            this.nonNull = new NonNullRows(values);
        } else {
            this.nonNull = null;
        }
        this.schema = new Schema(List.of(field));
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        int[] sources = new int[count];
        int[] rows = new int[count];
        boolean[] nulls = new boolean[count];
        boolean anyNull = false;
        for (int i = 0; i < count; i++) {
            int row = from + i;
            if (offsets.isNull(row)) {
                nulls[i] = true;
                anyNull = true;
                continue;
            }
            long offset = function.lead() ? offsets.get(row) : -offsets.get(row);
            int target = nonNull == null ? plain(row, offset) : ignoringNulls(row, offset);
            sources[i] = target < 0 ? DEFAULT : VALUE;
            rows[i] = target < 0 ? row : target;
        }
        VectorSchemaRoot taken = MultiTake.take(schema, List.of(root(values), root(defaults)), sources, rows, 0, count, chunk.allocator());
        FieldVector result = taken.getVector(0);
        if (anyNull) {
            for (int i = 0; i < count; i++) {
                if (nulls[i]) {
                    result.setNull(i);
                }
            }
        }
        return result;
    }

    private VectorSchemaRoot root(FieldVector vector) {
        return new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), vector.getValueCount());
    }

    /** The row {@code offset} rows after {@code row} (before, when negative) in its partition, or -1. */
    private int plain(int row, long offset) {
        long target = row + offset;
        return target >= layout.partitionStart(row) && target < layout.partitionEnd(row) ? (int) target : -1;
    }

    /** The {@code |offset|}-th non-NULL row after (before) {@code row} in its partition, or -1; offset 0 is the row itself. */
    private int ignoringNulls(int row, long offset) {
        if (offset == 0) {
            return row;
        }
        long index = offset > 0 ? nonNull.countBefore(row + 1) + offset - 1 : nonNull.countBefore(row) + offset;
        long first = nonNull.countBefore(layout.partitionStart(row));
        long end = nonNull.countBefore(layout.partitionEnd(row));
        return index >= first && index < end ? nonNull.position((int) index) : -1;
    }
}
