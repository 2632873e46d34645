package dev.quiver.engine.operator.sort;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Compares rows by a list of sort keys, each a {@link SortColumn} built over the same rows. Two
 * comparators built for the same keys over different batches compare rows across them (merge).
 */
public final class RowComparator {
    private final SortColumn[] columns;

    private RowComparator(List<SortColumn> columns) {
        this.columns = columns.toArray(new SortColumn[0]);
    }

    /** The comparator of {@code keys} over the rows of {@code keyVectors} (per batch, one vector per key). */
    public static RowComparator build(List<SortKey> keys, List<List<FieldVector>> keyVectors) {
        List<SortColumn> columns = new ArrayList<>(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            List<FieldVector> vectors = new ArrayList<>(keyVectors.size());
            for (List<FieldVector> batchKeys : keyVectors) {
                vectors.add(batchKeys.get(k));
            }
            columns.add(SortColumn.build(keys.get(k), vectors));
        }
        return new RowComparator(columns);
    }

    /** Row {@code row} of this comparator's rows against row {@code otherRow} of {@code other}'s. */
    public int compare(int row, RowComparator other, int otherRow) {
        for (int k = 0; k < columns.length; k++) {
            int result = columns[k].compare(row, other.columns[k], otherRow);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    public int compare(int row, int otherRow) {
        return compare(row, this, otherRow);
    }

    /**
     * The key vectors of {@code batch}: a key that is a column is the batch's own vector
     * (borrowed); other keys are evaluated into {@code owned}, which the caller closes.
     */
    public static List<FieldVector> keyVectors(List<SortKey> keys, VectorSchemaRoot batch, BufferAllocator allocator, List<FieldVector> owned) {
        List<FieldVector> vectors = new ArrayList<>(keys.size());
        for (SortKey key : keys) {
            PhysicalExpr expr = key.expr();
            if (expr instanceof ColumnExpr column) {
                vectors.add(batch.getVector(column.index()));
            } else {
                FieldVector evaluated = expr.evaluate(batch, allocator);
                owned.add(evaluated);
                vectors.add(evaluated);
            }
        }
        return vectors;
    }
}
