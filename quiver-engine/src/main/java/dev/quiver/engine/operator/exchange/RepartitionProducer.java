package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Drains one opened input partition of a repartition on its own thread: hash partitioning scatters each
 * batch's rows by {@link PartitionHash} of the key expressions and gathers small pieces back up to
 * the batch size per output; round-robin deals whole batches in turn.
 */
final class RepartitionProducer implements Runnable {
    private final BatchStream stream;
    private final int inputPartition;
    private final Partitioning partitioning;
    private final RepartitionState state;
    private final TaskContext context;
    private final int outputs;
    private final PartitionMetrics metrics;

    /** {@code metrics} receive the time spent hashing and scattering (the input's own work is not counted). */
    RepartitionProducer(BatchStream stream, int inputPartition, Partitioning partitioning, RepartitionState state, TaskContext context,
            PartitionMetrics metrics) {
        this.metrics = metrics;
        this.stream = stream;
        this.inputPartition = inputPartition;
        this.partitioning = partitioning;
        this.state = state;
        this.context = context;
        this.outputs = partitioning.partitionCount();
    }

    @Override
    public void run() {
        List<BatchConcat> pending = new ArrayList<>();
        try {
            if (partitioning instanceof Partitioning.Hash hash) {
                for (int i = 0; i < outputs; i++) {
                    pending.add(new BatchConcat(context.allocator(), context.batchSize()));
                }
                scatterByHash(stream, hash.keys(), pending);
            } else {
                dealRoundRobin(stream);
            }
        } catch (Throwable t) {
            report(t);
        } finally {
            pending.forEach(BatchConcat::close);
            try {
                stream.close();
            } catch (Throwable t) {
                report(t);
            }
            state.producerFinished();
        }
    }

    private void dealRoundRobin(BatchStream stream) {
        int next = inputPartition % outputs;
        while (!state.allOutputsClosed() && !context.isCancelled()) {
            VectorSchemaRoot batch = stream.next();
            if (batch == null) {
                return;
            }
            if (batch.getRowCount() == 0) {
                batch.close();
                continue;
            }
            state.send(next, batch, context);
            next = (next + 1) % outputs;
        }
    }

    private void scatterByHash(BatchStream stream, List<PhysicalExpr> keys, List<BatchConcat> pending) {
        while (!state.allOutputsClosed() && !context.isCancelled()) {
            VectorSchemaRoot batch = stream.next();
            if (batch == null) {
                break;
            }
            long start = System.nanoTime();
            try (batch) {
                if (batch.getRowCount() == 0) {
                    continue;
                }
                PartitionSplit split = PartitionSplit.of(partitionsOf(batch, keys), outputs);
                for (int p = 0; p < outputs; p++) {
                    if (split.count(p) == 0 || state.isClosed(p)) {
                        continue;
                    }
                    VectorSchemaRoot ready = pending.get(p).add(split.take(batch, p, context.allocator()));
                    if (ready != null) {
                        metrics.addElapsedCompute(System.nanoTime() - start);
                        state.send(p, ready, context);
                        start = System.nanoTime();
                    }
                }
            }
            metrics.addElapsedCompute(System.nanoTime() - start);
        }
        for (int p = 0; p < outputs; p++) {
            VectorSchemaRoot rest = pending.get(p).flush();
            if (rest != null) {
                state.send(p, rest, context);
            }
        }
    }

    private int[] partitionsOf(VectorSchemaRoot batch, List<PhysicalExpr> keys) {
        List<FieldVector> keyVectors = new ArrayList<>(keys.size());
        try {
            for (PhysicalExpr key : keys) {
                keyVectors.add(key.evaluate(batch, context.allocator()));
            }
            return PartitionHash.partitions(keyVectors, batch.getRowCount(), outputs);
        } finally {
            keyVectors.forEach(FieldVector::close);
        }
    }

    private void report(Throwable t) {
        if (state.allOutputsClosed()) {
            return;
        }
        RuntimeException error = BatchChannel.asRuntime(t);
        context.fail(error);
        state.fail(error);
    }
}
