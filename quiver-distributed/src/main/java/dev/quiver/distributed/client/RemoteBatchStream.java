package dev.quiver.distributed.client;

import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The batches of several remote partitions as one stream. One reader thread per source (from the
 * reading task's executor) pulls its DoGet and moves each batch into the task's allocator
 * (ownership transfer, no copy) and into a bounded queue, so a slow consumer holds back every
 * producer. It ends when every source has ended; the first failure is thrown, naming the worker
 * and the producer task. {@link #close()} cancels the streams still open and waits for the
 * readers, so nothing touches the task's allocator afterwards.
 */
final class RemoteBatchStream implements BatchStream {
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Queued batches per source before readers wait (Flight itself buffers a few more per stream). */
    private static final int QUEUE_PER_SOURCE = 2;

    private final Schema schema;
    private final TaskContext context;
    private final WorkerConnections connections;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<VectorSchemaRoot> queue = new ArrayDeque<>();
    private final Set<FlightStream> open = new HashSet<>();
    private int running;
    private RuntimeException failure;
    private boolean closed;

    private RemoteBatchStream(Schema schema, TaskContext context, WorkerConnections connections, int sources) {
        this.schema = schema;
        this.context = context;
        this.connections = connections;
        this.capacity = Math.max(2, QUEUE_PER_SOURCE * sources);
    }

    static RemoteBatchStream start(List<RemotePartition> sources, Schema schema, TaskContext context, WorkerConnections connections) {
        RemoteBatchStream stream = new RemoteBatchStream(schema, context, connections, sources.size());
        stream.running = sources.size();
        for (int i = 0; i < sources.size(); i++) {
            RemotePartition source = sources.get(i);
            DataTicket ticket = source.ticket();
            try {
                context.executor().execute("fetch-" + context.taskId() + "-" + ticket.producerTask() + "-p" + ticket.partition(), () -> stream.read(source));
            } catch (RuntimeException e) {
                stream.lock.lock();
                try {
                    stream.running -= sources.size() - i;
                } finally {
                    stream.lock.unlock();
                }
                stream.close();
                throw e;
            }
        }
        return stream;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        lock.lock();
        try {
            while (true) {
                if (failure != null) {
                    throw failure;
                }
                if (closed) {
                    return null;
                }
                VectorSchemaRoot batch = queue.pollFirst();
                if (batch != null) {
                    changed.signalAll();
                    return batch;
                }
                if (running == 0) {
                    return null;
                }
                context.checkCancelled();
                awaitQuietly();
            }
        } finally {
            lock.unlock();
        }
    }

    private void read(RemotePartition source) {
        FlightStream stream = null;
        boolean received = false;
        try {
            byte[] ticket = connections.wire().encodeTicket(source.ticket());
            stream = connections.client(source.worker()).getStream(new Ticket(ticket));
            if (!register(stream)) {
                return;
            }
            while (stream.next()) {
                received = true;
                VectorSchemaRoot root = stream.getRoot();
                if (root.getRowCount() == 0) {
                    continue;
                }
                if (!offer(take(root, context.allocator()))) {
                    return;
                }
            }
        } catch (Throwable t) {
            fail(t, source, received);
        } finally {
            if (stream != null) {
                unregister(stream);
                StreamRelease.release(stream);
            }
            lock.lock();
            try {
                running--;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Moves the stream root's buffers into a batch of {@code allocator} (the stream root is left empty). */
    private static VectorSchemaRoot take(VectorSchemaRoot root, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors().size());
        for (FieldVector vector : root.getFieldVectors()) {
            TransferPair transfer = vector.getTransferPair(allocator);
            transfer.transfer();
            vectors.add((FieldVector) transfer.getTo());
        }
        return new VectorSchemaRoot(root.getSchema().getFields(), vectors, root.getRowCount());
    }

    private boolean register(FlightStream stream) {
        lock.lock();
        try {
            if (closed || failure != null) {
                return false;
            }
            open.add(stream);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void unregister(FlightStream stream) {
        lock.lock();
        try {
            open.remove(stream);
        } finally {
            lock.unlock();
        }
    }

    /** Queues a batch, waiting while the queue is full; false (batch released) once the stream is closed, failed or cancelled; released too when the wait throws. */
    private boolean offer(VectorSchemaRoot batch) {
        boolean queued = false;
        lock.lock();
        try {
            while (!closed && failure == null && !context.isCancelled() && queue.size() >= capacity) {
                awaitQuietly();
            }
            if (closed || failure != null || context.isCancelled()) {
                return false;
            }
            queue.addLast(batch);
            queued = true;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
            if (!queued) {
                // stopped, or interrupted while waiting for room: the batch is nobody else's to free
                batch.close();
            }
        }
    }

    private void fail(Throwable error, RemotePartition source, boolean received) {
        List<FlightStream> others;
        lock.lock();
        try {
            if (closed || failure != null) {
                return;
            }
            failure = asQuiver(error, source, received);
            others = new ArrayList<>(open);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        // the other sources are of no use any more
        others.forEach(stream -> stream.cancel("another input of " + context.taskId() + " failed", null));
    }

    static QuiverException asQuiver(Throwable error, RemotePartition source, boolean received) {
        DataTicket ticket = source.ticket();
        String what = "partition " + ticket.partition() + " of task " + ticket.producerTask() + " on worker " + source.worker();
        if (error instanceof FlightRuntimeException flight) {
            Optional<TaskError> remote = FlightErrors.remoteError(flight);
            if (remote.isPresent() && remote.get().code() == ErrorCode.QUERY_CANCELLED) {
                // the producer was stopped (its query is ending): a cancellation, not a failure of this task
                return new QuiverException(ErrorCode.QUERY_CANCELLED, "reading " + what + " stopped: " + remote.get().message(), error);
            }
            if (remote.isPresent()) {
                // the producer's own code: the query fails with the root cause's code whichever task's failure the coordinator hears first
                return new QuiverException(remote.get().code(), "reading " + what + " failed: " + remote.get().code().name() + ": "
                        + remote.get().message(), error);
            }
            if (FlightErrors.isUnavailable(flight)) {
                return new QuiverException(received ? ErrorCode.WORKER_LOST : ErrorCode.WORKER_UNREACHABLE,
                        (received ? "lost worker " + source.worker() + " while reading " : "cannot reach worker " + source.worker() + " to read ") + what
                                + " (" + FlightErrors.describe(flight) + ")", error);
            }
            return new QuiverException(ErrorCode.REMOTE_TASK_FAILED, "reading " + what + " failed: " + FlightErrors.describe(flight), error);
        }
        if (error instanceof QuiverException quiver) {
            return quiver;
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, "reading " + what + " failed: " + error, error);
    }

    private void awaitQuietly() {
        try {
            changed.awaitNanos(WAIT_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while reading remote partitions of " + context.taskId(), e);
        }
    }

    @Override
    public void close() {
        List<FlightStream> toCancel;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toCancel = new ArrayList<>(open);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        toCancel.forEach(stream -> stream.cancel("the reading task " + context.taskId() + " no longer needs this partition", null));
        lock.lock();
        try {
            while (running > 0) {
                changed.awaitUninterruptibly();
            }
            VectorSchemaRoot batch;
            while ((batch = queue.pollFirst()) != null) {
                batch.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
