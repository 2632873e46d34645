package dev.quiver.engine.operator.window;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code RANK()}, {@code DENSE_RANK()}, {@code PERCENT_RANK()} and {@code CUME_DIST()}, from the
 * row's partition and peer group: rows with equal ORDER BY keys share a rank.
 */
final class RankEvaluator implements WindowEvaluator {
    private final WindowFunction.Rank.Kind kind;
    private final WindowChunk chunk;
    private final PartitionLayout layout;
    private final Field field;

    RankEvaluator(WindowFunction.Rank.Kind kind, WindowChunk chunk, Field field) {
        this.kind = kind;
        this.chunk = chunk;
        this.layout = chunk.layout();
        this.field = field;
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        FieldVector out = field.createVector(chunk.allocator());
        try {
            if (out instanceof BigIntVector ranks) {
                ranks.allocateNew(Math.max(count, 1));
                for (int i = 0; i < count; i++) {
                    ranks.set(i, rank(from + i));
                }
            } else {
                Float8Vector fractions = (Float8Vector) out;
                fractions.allocateNew(Math.max(count, 1));
                for (int i = 0; i < count; i++) {
                    fractions.set(i, fraction(from + i));
                }
            }
            out.setValueCount(count);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private long rank(int row) {
        int partitionStart = layout.partitionStart(row);
        if (kind == WindowFunction.Rank.Kind.DENSE_RANK) {
            return layout.peerOf(row) - layout.peerOf(partitionStart) + 1L;
        }
        return layout.peerStart(row) - partitionStart + 1L;
    }

    private double fraction(int row) {
        int partitionStart = layout.partitionStart(row);
        long rows = layout.partitionEnd(row) - partitionStart;
        if (kind == WindowFunction.Rank.Kind.CUME_DIST) {
            return (double) (layout.peerEnd(row) - partitionStart) / rows;
        }
        return rows == 1 ? 0.0 : (double) (layout.peerStart(row) - partitionStart) / (rows - 1);
    }
}
