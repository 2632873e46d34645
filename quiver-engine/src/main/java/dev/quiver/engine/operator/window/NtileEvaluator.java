package dev.quiver.engine.operator.window;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code NTILE(n)}: the partition's rows split into n buckets numbered from 1, of sizes differing by
 * at most one with the larger first (as PostgreSQL and DuckDB do); n larger than the partition
 * gives every row its own bucket. n must be positive; NULL gives NULL.
 */
final class NtileEvaluator implements WindowEvaluator {
    private final WindowChunk chunk;
    private final PartitionLayout layout;
    private final IntegerArg buckets;
    private final Field field;

    NtileEvaluator(WindowFunction.Ntile ntile, WindowChunk chunk, Field field) {
        this.chunk = chunk;
        this.layout = chunk.layout();
        this.buckets = new IntegerArg(chunk.column(ntile.buckets()));
        this.field = field;
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        BigIntVector out = (BigIntVector) field.createVector(chunk.allocator());
        try {
            out.allocateNew(Math.max(count, 1));
            for (int i = 0; i < count; i++) {
                int row = from + i;
                if (buckets.isNull(row)) {
                    out.setNull(i);
                    continue;
                }
                out.set(i, bucket(row, buckets.get(row)));
            }
            out.setValueCount(count);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private long bucket(int row, long n) {
        if (n <= 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The argument of NTILE must be greater than zero: " + n);
        }
        int partitionStart = layout.partitionStart(row);
        long rows = layout.partitionEnd(row) - partitionStart;
        long buckets = Math.min(n, rows);
        long small = rows / buckets;
        long large = rows - buckets * small;
        long inLarge = large * (small + 1);
        long index = row - partitionStart;
        return index < inLarge ? 1 + index / (small + 1) : 1 + large + (index - inLarge) / small;
    }
}
