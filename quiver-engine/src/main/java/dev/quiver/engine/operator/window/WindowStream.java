package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * One partition of a {@link WindowExec}.
 *
 * <pre>
 *            rows held reach the threshold and a window partition is complete
 *   READING -------------------------------------------------------------------> EMITTING
 *      ^   (no partition complete yet: the threshold doubles, READING goes on)      |
 *      +---------------------------- every batch of the chunk emitted -------------+
 *   READING --- input ended, nothing held ---> DONE
 * </pre>
 *
 * <p>READING pulls input batches into {@code pending}, reserving their bytes, until it holds at
 * least {@code threshold} rows (the batch size at first) or the input ends. The rows up to the
 * start of the last window partition it holds (all rows once the input ended) become a chunk: the
 * batch that straddles the cut is split, and the rest stays pending. EMITTING evaluates the
 * chunk's window expressions batch by batch and hands each input batch out with its window
 * columns appended, releasing its bytes.
 */
final class WindowStream implements BatchStream {
    private enum State { READING, EMITTING, DONE }

    private final WindowExec plan;
    private final BatchStream source;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final MemoryReservation reservation;
    private final List<VectorSchemaRoot> pending = new ArrayList<>();
    private long pendingRows;
    private long threshold;
    private boolean inputDone;
    private State state = State.READING;

    private WindowChunk chunk;
    private final List<WindowEvaluator> evaluators = new ArrayList<>();
    private final List<VectorSchemaRoot> chunkBatches = new ArrayList<>();
    private long layoutBytes;
    private int emitted;
    private int emittedRows;

    WindowStream(WindowExec plan, BatchStream source, int partition, TaskContext context) {
        this.plan = plan;
        this.source = source;
        this.context = context;
        this.metrics = plan.metrics().partition(partition);
        this.reservation = context.memoryPool().newReservation("WindowExec[partition=" + partition + "]");
        this.threshold = context.batchSize();
    }

    @Override
    public Schema schema() {
        return plan.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        try {
            while (true) {
                if (state == State.DONE) {
                    return null;
                }
                if (state == State.EMITTING) {
                    if (emitted < chunkBatches.size()) {
                        return emit();
                    }
                    finishChunk();
                    state = State.READING;
                }
                if (!startChunk()) {
                    close();
                    return null;
                }
                state = State.EMITTING;
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** Reads until a chunk can be cut and starts evaluating it; false when the input is exhausted. */
    private boolean startChunk() {
        while (true) {
            readUntil(threshold);
            if (pending.isEmpty()) {
                return false;
            }
            long start = System.nanoTime();
            layoutBytes = PartitionLayout.estimateBytes((int) pendingRows, plan.partitionKeys().size() + plan.orderKeys().size());
            reservation.grow(layoutBytes);
            PartitionLayout layout = PartitionLayout.compute(pending, plan.partitionKeys(), plan.orderKeys(), context.allocator());
            int cut = inputDone ? layout.rows() : layout.partitionStartOf(layout.partitionCount() - 1);
            if (cut == 0) {
                // one window partition so far: it is not complete until a later row (or the end) says so
                reservation.shrink(layoutBytes);
                layoutBytes = 0;
                threshold = Math.max(threshold, pendingRows) * 2;
                metrics.addElapsedCompute(System.nanoTime() - start);
                continue;
            }
            cutPending(cut);
            chunk = new WindowChunk(chunkBatches, layout.prefix(cut), plan.orderKeys(), context.allocator(), reservation);
            for (WindowExpr expr : plan.windowExprs()) {
                evaluators.add(WindowEvaluator.create(expr, chunk));
                context.checkCancelled();
            }
            threshold = pendingRows + context.batchSize();
            emitted = 0;
            emittedRows = 0;
            metrics.recordMemory(reservation.peak());
            metrics.addElapsedCompute(System.nanoTime() - start);
            return true;
        }
    }

    private void readUntil(long rows) {
        while (!inputDone && pendingRows < rows) {
            VectorSchemaRoot batch = source.next();
            if (batch == null) {
                inputDone = true;
                source.close();
                return;
            }
            if (batch.getRowCount() == 0) {
                batch.close();
                continue;
            }
            try {
                reservation.grow(Batches.sizeInBytes(batch));
            } catch (RuntimeException e) {
                batch.close();
                throw e;
            }
            pending.add(batch);
            pendingRows += batch.getRowCount();
        }
    }

    /** Moves the first {@code cut} pending rows into {@code chunkBatches}, splitting the batch that straddles the cut. */
    private void cutPending(int cut) {
        int rows = 0;
        while (rows < cut) {
            VectorSchemaRoot batch = pending.get(0);
            int count = batch.getRowCount();
            if (rows + count <= cut) {
                pending.remove(0);
                chunkBatches.add(batch);
                rows += count;
                continue;
            }
            int head = cut - rows;
            long before = Batches.sizeInBytes(batch);
            VectorSchemaRoot first = slice(batch, 0, head);
            VectorSchemaRoot second;
            try {
                second = slice(batch, head, count - head);
            } catch (RuntimeException e) {
                first.close();
                throw e;
            }
            batch.close();
            pending.set(0, second);
            chunkBatches.add(first);
            reservation.shrink(before);
            reservation.grow(Batches.sizeInBytes(first) + Batches.sizeInBytes(second));
            rows = cut;
        }
        pendingRows -= cut;
    }

    private VectorSchemaRoot slice(VectorSchemaRoot batch, int from, int count) {
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                TransferPair transfer = vector.getTransferPair(context.allocator());
                transfer.splitAndTransfer(from, count);
                vectors.add((FieldVector) transfer.getTo());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
    }

    /** The next batch of the chunk with its window columns. */
    private VectorSchemaRoot emit() {
        long start = System.nanoTime();
        VectorSchemaRoot batch = chunkBatches.get(emitted);
        int count = batch.getRowCount();
        List<FieldVector> vectors = new ArrayList<>(plan.schema().getFields().size());
        try {
            for (WindowEvaluator evaluator : evaluators) {
                vectors.add(evaluator.evaluate(emittedRows, count));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        List<FieldVector> columns = new ArrayList<>(batch.getFieldVectors());
        columns.addAll(vectors);
        chunkBatches.set(emitted, null);
        emitted++;
        emittedRows += count;
        reservation.shrink(Batches.sizeInBytes(batch));
        metrics.setPendingOutputRows(chunk.rows() - emittedRows + pendingRows);
        metrics.addElapsedCompute(System.nanoTime() - start);
        return new VectorSchemaRoot(plan.schema().getFields(), columns, count);
    }

    private void finishChunk() {
        evaluators.forEach(WindowEvaluator::close);
        evaluators.clear();
        if (chunk != null) {
            chunk.close();
            chunk = null;
        }
        for (VectorSchemaRoot batch : chunkBatches) {
            if (batch != null) {
                reservation.shrink(Batches.sizeInBytes(batch));
                batch.close();
            }
        }
        chunkBatches.clear();
        reservation.shrink(layoutBytes);
        layoutBytes = 0;
    }

    @Override
    public void close() {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        try {
            finishChunk();
            pending.forEach(VectorSchemaRoot::close);
            pending.clear();
            source.close();
        } finally {
            metrics.recordMemory(reservation.peak());
            reservation.close();
        }
    }
}
