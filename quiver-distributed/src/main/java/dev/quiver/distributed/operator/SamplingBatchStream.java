package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryReservation;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One partition's sampler (DESIGN §5 step 5): first pulls batches from its input until it holds
 * {@code budgetBytes} or the input ends, reports a {@link PartitionSample} to the task's
 * {@link SampleSink}, then hands the consumer exactly the batches it pulled, in order, followed by
 * the rest of the input. Nothing is lost and nothing is computed twice. The buffered batches are
 * reserved in the task's memory pool (as {@code SamplerExec[partition=p]}) and released one by one
 * as they are replayed; a batch the pool cannot hold ends the sample early instead of failing.
 *
 * <pre>
 *   PENDING --sample() or next()--> REPLAYING --buffer empty--> STREAMING --input ends--> DONE
 *      |                                |                           |
 *      +------ input fails ------> FAILED (next() rethrows)         +---- close() from any state --> CLOSED
 * </pre>
 *
 * {@link #sample()} may run on another thread than the later {@link #next()} calls (a worker samples
 * as soon as the task is dispatched; the consumer pulls when it asks for data): the methods are
 * synchronized, which also orders the handover.
 */
final class SamplingBatchStream implements BatchStream {
    private enum State { PENDING, REPLAYING, STREAMING, DONE, FAILED, CLOSED }

    private record Buffered(VectorSchemaRoot batch, long reserved) {}

    private final BatchStream input;
    private final int partition;
    private final long budgetBytes;
    private final List<PhysicalExpr> keys;
    private final DriverLeaves driver;
    private final SampleSink sink;
    private final TaskContext context;
    private final MemoryReservation reservation;
    private final PartitionMetrics metrics;
    private final ArrayDeque<Buffered> buffer = new ArrayDeque<>();
    private State state = State.PENDING;
    private boolean inputEnded;
    private PartitionSample sample;
    private RuntimeException failure;

    SamplingBatchStream(BatchStream input, int partition, long budgetBytes, List<PhysicalExpr> keys, DriverLeaves driver, SampleSink sink,
            TaskContext context, PartitionMetrics metrics) {
        this.input = requireNonNull(input, "input is null");
        this.partition = partition;
        this.budgetBytes = budgetBytes;
        this.keys = requireNonNull(keys, "keys is null");
        this.driver = requireNonNull(driver, "driver is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.reservation = context.memoryPool().newReservation("SamplerExec[partition=" + partition + "]");
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    /** Runs the sampling phase if it has not run yet; returns the sample, or empty when the stream was closed first. */
    synchronized Optional<PartitionSample> sample() {
        if (state == State.PENDING) {
            runSample();
        }
        if (state == State.FAILED) {
            throw failure;
        }
        return Optional.ofNullable(sample);
    }

    private void runSample() {
        SampleAccumulator accumulator = new SampleAccumulator(input.schema(), keys);
        try {
            while (accumulator.bytes() < budgetBytes) {
                context.checkCancelled();
                VectorSchemaRoot batch = input.next();
                if (batch == null) {
                    inputEnded = true;
                    break;
                }
                long size = Batches.sizeInBytes(batch);
                boolean reserved = reservation.tryGrow(size);
                buffer.add(new Buffered(batch, reserved ? size : 0));
                accumulator.add(batch, size, context.allocator());
                if (!reserved) {
                    break;
                }
            }
        } catch (RuntimeException error) {
            failure = error;
            state = State.FAILED;
            releaseBuffer();
            throw error;
        }
        // the pipeline below is pulled by this thread only, so the metrics read here describe the moment sampling stopped
        sample = accumulator.toSample(partition, inputEnded, driver.isBlocked(), driver.state(partition), driver.pendingRows(partition),
                driver.isEmpty() ? -1 : driver.rowsPulled(partition), driver.isEmpty() ? -1 : driver.rowsExpected(partition));
        state = State.REPLAYING;
        sink.accept(sample);
    }

    @Override
    public synchronized VectorSchemaRoot next() {
        if (state == State.PENDING) {
            runSample();
        }
        switch (state) {
            case FAILED -> throw failure;
            case CLOSED -> throw new QuiverException(ErrorCode.INTERNAL_ERROR, "SamplerExec partition " + partition + " was read after close");
            case DONE -> {
                return null;
            }
            default -> {
            }
        }
        Buffered next = buffer.poll();
        if (next != null) {
            reservation.shrink(next.reserved());
            return next.batch();
        }
        state = State.STREAMING;
        if (inputEnded) {
            state = State.DONE;
            return null;
        }
        context.checkCancelled();
        VectorSchemaRoot batch = input.next();
        if (batch == null) {
            state = State.DONE;
        }
        return batch;
    }

    private void releaseBuffer() {
        Buffered next;
        while ((next = buffer.poll()) != null) {
            next.batch().close();
        }
        reservation.free();
    }

    @Override
    public synchronized void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        metrics.recordMemory(reservation.peak());
        try {
            releaseBuffer();
            reservation.close();
        } finally {
            input.close();
        }
    }
}
