package dev.quiver.engine.operator.recursive;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows of a recursive query's last iteration, which its recursive part reads as the
 * recursive table. {@link RecursiveUnionExec} fills it between iterations, closes what it
 * replaces and clears it when its stream closes; each {@link WorkTableScanExec} stream reads slices of the batches, which share their
 * buffers by reference count, so reading leaves the table whole for another reference to it.
 */
final class WorkTable {
    private List<VectorSchemaRoot> batches = List.of();

    /** Makes {@code next} (taken over) the table's rows and closes the previous ones. */
    synchronized void replace(List<VectorSchemaRoot> next) {
        clear();
        batches = List.copyOf(next);
    }

    /** Slices of every batch, each owned by the caller. */
    synchronized List<VectorSchemaRoot> read() {
        List<VectorSchemaRoot> slices = new ArrayList<>(batches.size());
        for (VectorSchemaRoot batch : batches) {
            slices.add(batch.slice(0, batch.getRowCount()));
        }
        return slices;
    }

    synchronized void clear() {
        batches.forEach(VectorSchemaRoot::close);
        batches = List.of();
    }
}
