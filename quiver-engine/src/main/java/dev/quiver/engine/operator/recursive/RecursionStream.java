package dev.quiver.engine.operator.recursive;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.operator.aggregate.DistinctRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The one partition of a {@link RecursiveUnionExec}.
 *
 * <pre>
 *   SEED --seed ends--> STEP --a run ends with rows--> STEP (the next run reads them)
 *     |                   |
 *     +--no rows----------+--a run ends without rows--> DONE
 * </pre>
 *
 * Each batch that passes (for UNION: its rows not seen before) is kept for the next run's work
 * table and handed to the consumer as a slice sharing its buffers.
 */
final class RecursionStream implements BatchStream {
    private enum State { SEED, STEP, DONE }

    private final RecursiveUnionExec node;
    private final List<WorkTableScanExec> scans;
    private final List<WorkTable> tables = new ArrayList<>();
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final MemoryReservation rows;
    private final MemoryReservation seen;
    private final DistinctRows distinctRows;
    private final List<VectorSchemaRoot> produced = new ArrayList<>();
    private long producedBytes;
    private long workTableBytes;
    private long runs;
    private State state = State.SEED;
    private BatchStream source;
    private TaskContext run;

    RecursionStream(RecursiveUnionExec node, List<WorkTableScanExec> scans, TaskContext context, PartitionMetrics metrics) {
        this.node = requireNonNull(node, "node is null");
        this.scans = List.copyOf(scans);
        scans.forEach(scan -> tables.add(new WorkTable()));
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.rows = context.memoryPool().newReservation("RecursiveUnionExec[" + node.table() + "]");
        this.seen = context.memoryPool().newReservation("RecursiveUnionExec[" + node.table() + ", distinct rows]");
        this.distinctRows = node.distinct() ? new DistinctRows(node.schema(), seen) : null;
    }

    @Override
    public Schema schema() {
        return node.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        while (state != State.DONE) {
            if (source == null) {
                startRun();
            }
            VectorSchemaRoot batch = source.next();
            if (batch == null) {
                closeRun();
                endRun();
                continue;
            }
            long start = System.nanoTime();
            VectorSchemaRoot kept;
            try {
                kept = distinctRows == null ? batch : newRows(batch);
            } finally {
                metrics.addElapsedCompute(System.nanoTime() - start);
            }
            if (kept != null) {
                long bytes = Batches.sizeInBytes(kept);
                produced.add(kept);
                rows.grow(bytes);
                producedBytes += bytes;
                return kept.slice(0, kept.getRowCount());
            }
            context.checkCancelled();
        }
        return null;
    }

    /**
     * Each run executes its part in a context of its own: operators whose partitions share state
     * (a join's build side, a repartition's queues) start afresh, and the work tables are there.
     */
    private void startRun() {
        run = context.forRerun(node.table() + "-" + (state == State.SEED ? "seed" : "run" + (runs + 1)));
        for (int i = 0; i < scans.size(); i++) {
            WorkTable table = tables.get(i);
            run.sharedState(scans.get(i), WorkTable.class, () -> table);
        }
        source = (state == State.SEED ? node.seed() : node.step()).execute(0, run);
    }

    private void closeRun() {
        try {
            if (source != null) {
                source.close();
            }
        } finally {
            source = null;
            if (run != null) {
                run.close();
                run = null;
            }
        }
    }

    /** The rows of {@code batch} (taken over) not produced before, or null if there are none. */
    private VectorSchemaRoot newRows(VectorSchemaRoot batch) {
        try {
            int[] fresh = distinctRows.add(batch);
            if (fresh.length == batch.getRowCount() && fresh.length > 0) {
                VectorSchemaRoot all = batch;
                batch = null;
                return all;
            }
            if (fresh.length == 0) {
                return null;
            }
            return Take.take(node.schema(), batch, fresh, fresh.length, context.allocator());
        } finally {
            if (batch != null) {
                batch.close();
            }
        }
    }

    /** A run ended: its rows become the work table of the next run, or the recursion is done. */
    private void endRun() {
        if (state == State.STEP && !produced.isEmpty() && ++runs >= node.maxIterations()) {
            throw new QuiverException(ErrorCode.RECURSION_LIMIT_EXCEEDED, "The recursive query " + node.table() + " still produced rows after "
                    + node.maxIterations() + " iterations of its recursive part, Quiver's limit for a recursive query; check that the recursive part"
                    + " stops producing rows (a WHERE that ends it, or UNION instead of UNION ALL for a cycle)");
        }
        rows.shrink(workTableBytes);
        workTableBytes = producedBytes;
        producedBytes = 0;
        if (produced.isEmpty()) {
            tables.forEach(WorkTable::clear);
            state = State.DONE;
            return;
        }
        for (int i = 0; i < tables.size(); i++) {
            List<VectorSchemaRoot> batches = new ArrayList<>(produced.size());
            for (VectorSchemaRoot batch : produced) {
                batches.add(i == tables.size() - 1 ? batch : batch.slice(0, batch.getRowCount()));
            }
            tables.get(i).replace(batches);
        }
        produced.clear();
        state = State.STEP;
    }

    @Override
    public void close() {
        try {
            closeRun();
        } finally {
            produced.forEach(VectorSchemaRoot::close);
            produced.clear();
            tables.forEach(WorkTable::clear);
            metrics.recordMemory(rows.peak() + seen.peak());
            rows.close();
            seen.close();
            state = State.DONE;
        }
    }
}
