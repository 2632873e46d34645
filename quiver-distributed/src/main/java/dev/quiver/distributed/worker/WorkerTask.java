package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.operator.SampleSink;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One task on a worker: its plan, its own allocator and {@link TaskContext}, its producer head and
 * which of its output partitions have been served.
 *
 * <h2>States</h2>
 * <pre>
 *   SENT --first data request--> RUNNING --every output served completely--> FINISHED
 *     |                             |--an operator failed--> FAILED
 *     |                             '--query ended first---> CANCELLED
 *     '--query ended first--> SKIPPED
 * </pre>
 * Under a broadcast head "every output" means every partition replayed to each of the T_c
 * consumer tasks.
 *
 * <h2>Producer head</h2>
 * Bound from the request, or else from the first data ticket; every later ticket must name the
 * same head (compared as JSON, so keys compare by value). A shuffle head runs the plan under
 * {@code RepartitionExec(Hash(keys, P_c × T_c))}, built here; a coalesce serves the plan's own
 * partitions; a broadcast serves each partition from a {@link BroadcastBuffer}.
 *
 * <p>Thread-safe: data requests arrive on their own threads, the end of the query on the control stream's.
 */
final class WorkerTask implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WorkerTask.class.getName());
    /** How long freeing a task waits for its senders to stop; they stop within one back-pressure wait once cancelled. */
    private static final long SENDERS_GRACE_NANOS = 30_000_000_000L;

    private final TaskRequest request;
    private final WorkerAddress worker;
    private final WireFormat wire;
    private final BufferAllocator allocator;
    private final TaskContext context;
    private final IpcCompression compression;
    private final TaskObserver observer;
    private final Object lock = new Object();
    private TaskState state = TaskState.SENT;
    private ProducerHead head;
    private JsonNode headJson;
    private ExecutionPlan executedPlan;
    private int slots;
    private BitSet started;
    private BitSet served;
    private BroadcastBuffer[] broadcast;
    private int[] broadcastServed;
    private int activeSenders;
    private TaskError error;
    private boolean ended;
    private boolean closed;

    WorkerTask(TaskRequest request, WorkerServer server, TaskObserver observer) {
        this.request = requireNonNull(request, "request is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.worker = server.address();
        this.wire = server.connections().wire();
        this.compression = request.settings().get(DistributedSettings.COMPRESSION);
        this.executedPlan = request.plan();
        ExecutionConfig config = ExecutionConfig.of(request.settings());
        this.allocator = server.allocator().newChildAllocator("task-" + request.taskId(), 0, Long.MAX_VALUE);
        this.context = new TaskContext(request.taskId().toString(), allocator, server.memoryPool(), server.executor(), config,
                Map.of(ExchangeClient.class, server.connections().exchangeClient(), SampleSink.class, (SampleSink) observer::sample));
        try {
            request.head().ifPresent(this::bind);
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    /** The worker shuts down: the control stream fails with {@code reason} and the task is dropped. */
    void shutdown(String reason) {
        observer.stop(reason);
    }

    TaskId id() {
        return request.taskId();
    }

    BufferAllocator allocator() {
        return allocator;
    }

    IpcCompression compression() {
        return compression;
    }

    /** Throws the task's failure, or QUERY_CANCELLED, once the task has been stopped. */
    void checkCancelled() {
        context.checkCancelled();
    }

    TaskState state() {
        synchronized (lock) {
            return state;
        }
    }

    /**
     * Starts serving {@code ticket}: checks it against the head and the partitions already served,
     * marks the task RUNNING on its first data request, and returns the stream to send. When it
     * returns, the caller must call {@link #senderFinished} exactly once; when it throws, it has
     * accounted for the request itself.
     */
    BatchStream open(DataTicket ticket) {
        int slot;
        synchronized (lock) {
            if (ended || closed) {
                throw new QuiverException(ErrorCode.QUERY_CANCELLED, "task " + id() + " has ended (" + state + "); its output can no longer be read");
            }
            if (head == null) {
                bind(ticket.head());
            } else if (!headJson.equals(wire.head(ticket.head()))) {
                throw mismatch("task " + id() + " is bound to producer head " + describe(head) + ", but consumer task " + ticket.consumerTaskIndex()
                        + " asks for partition " + ticket.partition() + " under " + describe(ticket.head())
                        + ": producer and consumer disagree on the consumer stage's task count or partitioning");
            }
            slot = slotOf(ticket);
            if (started.get(slot)) {
                throw mismatch("partition " + ticket.partition() + " of task " + id() + " was already requested by consumer task "
                        + ticket.consumerTaskIndex() + "; a partition is served once");
            }
            started.set(slot);
            activeSenders++;
            if (state == TaskState.SENT) {
                state = TaskState.RUNNING;
                observer.stateChanged(TaskState.RUNNING, Optional.empty());
            }
        }
        try {
            return head instanceof ProducerHead.Broadcast ? broadcastBuffer(ticket.partition()).replay() : executedPlan.execute(ticket.partition(), context);
        } catch (RuntimeException e) {
            senderFinished(ticket, false, e);
            throw e;
        }
    }

    /**
     * AQE (DESIGN §5 step 4): when the task's plan is a {@link SamplerExec}, samples every output
     * partition now, each on its own thread, before any consumer asks for data; each sample goes to
     * the coordinator on the control stream. The first pull makes the task RUNNING. The head, bound
     * later, reads the same sampler in the same context, which replays what was sampled.
     */
    void startSampling() {
        if (!(request.plan() instanceof SamplerExec sampler)) {
            return;
        }
        synchronized (lock) {
            if (ended || closed) {
                return;
            }
            if (state == TaskState.SENT) {
                state = TaskState.RUNNING;
                observer.stateChanged(TaskState.RUNNING, Optional.empty());
            }
        }
        int partitions = sampler.outputPartitioning().partitionCount();
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            synchronized (lock) {
                activeSenders++;
            }
            try {
                context.executor().execute("sample-" + id() + "-p" + partition, () -> samplePartition(sampler, partition));
            } catch (RuntimeException e) {
                samplingFinished(e);
            }
        }
    }

    private void samplePartition(SamplerExec sampler, int partition) {
        Throwable failure = null;
        try {
            if (!context.isCancelled()) {
                sampler.sample(partition, context);
            }
        } catch (Throwable e) {
            // an Error too (a stack overflow in a deep expression): a sampler that dies unheard leaves the coordinator waiting for its sample
            failure = e;
        }
        samplingFinished(failure);
    }

    private void samplingFinished(Throwable failure) {
        synchronized (lock) {
            activeSenders--;
            if (failure != null && !ended && state == TaskState.RUNNING && !isCancellation(failure)) {
                fail(failure);
            }
            lock.notifyAll();
        }
    }

    /** A data request ended: completely served, or cut short by {@code failure} (null if the consumer went away). */
    void senderFinished(DataTicket ticket, boolean complete, Throwable failure) {
        synchronized (lock) {
            activeSenders--;
            int slot = slotOf(ticket);
            if (complete) {
                served.set(slot);
                if (head instanceof ProducerHead.Broadcast broadcastHead && ++broadcastServed[ticket.partition()] == broadcastHead.consumerTasks()) {
                    broadcast[ticket.partition()].close();
                }
            }
            if (!ended && state == TaskState.RUNNING) {
                // an input stopped because the query is ending is no failure: the end of the query settles the state
                if (failure != null && !isCancellation(failure)) {
                    fail(failure);
                } else if (served.cardinality() == slots) {
                    state = TaskState.FINISHED;
                    observer.stateChanged(TaskState.FINISHED, Optional.empty());
                }
            }
            lock.notifyAll();
        }
    }

    /** RUNNING → FAILED with {@code failure}; stops the task's other partitions. Holds {@link #lock}. */
    private void fail(Throwable failure) {
        error = TaskError.of(failure);
        state = TaskState.FAILED;
        context.fail(failure);
        observer.stateChanged(TaskState.FAILED, Optional.of(error));
    }

    private static boolean isCancellation(Throwable failure) {
        return failure instanceof QuiverException quiver && quiver.errorCode() == ErrorCode.QUERY_CANCELLED;
    }

    /**
     * The query ended: stops the task if it still runs, waits until no data request uses it, and
     * returns its final report (SKIPPED with no metrics if it never executed).
     */
    TaskReport endQuery() {
        synchronized (lock) {
            ended = true;
            context.cancel("the query ended");
            awaitSenders();
            if (state == TaskState.SENT) {
                state = TaskState.SKIPPED;
            } else if (state == TaskState.RUNNING) {
                // a sampled task whose head was never bound (its consumer never asked) did not finish
                state = served != null && served.cardinality() == slots ? TaskState.FINISHED : TaskState.CANCELLED;
            }
            List<OperatorMetricsSnapshot> metrics = state == TaskState.SKIPPED ? List.of() : OperatorMetricsSnapshot.of(executedPlan);
            return new TaskReport(id(), worker, state, metrics, Optional.ofNullable(error));
        }
    }

    /** The control stream broke or the worker shuts down: stops the task and waits until no data request uses it. */
    void abort(String reason) {
        synchronized (lock) {
            ended = true;
            context.cancel(reason);
            awaitSenders();
            if (state == TaskState.SENT) {
                state = TaskState.SKIPPED;
            } else if (state == TaskState.RUNNING) {
                state = TaskState.CANCELLED;
            }
        }
    }

    /**
     * Waits, holding {@link #lock}, until no data request or sampler uses the task. The task's context
     * is cancelled first, so each of them stops within one back-pressure wait. An interrupt does not cut
     * the wait short (the caller frees the task's buffers next, which a running sender still holds);
     * it is kept for the caller to see.
     */
    private void awaitSenders() {
        boolean interrupted = false;
        long deadline = System.nanoTime() + SENDERS_GRACE_NANOS;
        while (activeSenders > 0 && System.nanoTime() < deadline) {
            try {
                lock.wait(100);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (activeSenders > 0) {
            LOG.log(System.Logger.Level.ERROR, "task " + id() + " still has " + activeSenders + " senders after " + SENDERS_GRACE_NANOS / 1_000_000_000 + " s");
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Frees everything the task holds; call after {@link #endQuery} or {@link #abort}. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            // a worker shutting down may close a task whose end of query is still waiting for its senders
            context.cancel("task " + id() + " is closing");
            awaitSenders();
        }
        try {
            if (broadcast != null) {
                for (BroadcastBuffer buffer : broadcast) {
                    if (buffer != null) {
                        buffer.close();
                    }
                }
            }
            context.close();
        } finally {
            try {
                allocator.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "task " + id() + " leaked memory: " + e.getMessage());
            }
        }
    }

    private void bind(ProducerHead newHead) {
        int planPartitions = request.plan().outputPartitioning().partitionCount();
        if (newHead instanceof ProducerHead.Shuffle shuffle) {
            int outputs = shuffle.outputPartitions(planPartitions);
            executedPlan = new RepartitionExec(request.plan(), new Partitioning.Hash(shuffle.keys(), outputs));
            slots = outputs;
        } else if (newHead instanceof ProducerHead.Broadcast broadcastHead) {
            slots = Math.multiplyExact(planPartitions, broadcastHead.consumerTasks());
            broadcast = new BroadcastBuffer[planPartitions];
            broadcastServed = new int[planPartitions];
        } else {
            slots = planPartitions;
        }
        head = newHead;
        headJson = wire.head(newHead);
        started = new BitSet(slots);
        served = new BitSet(slots);
    }

    /** The index of the (partition, consumer task) a ticket asks for; checks its range against the head. */
    private int slotOf(DataTicket ticket) {
        int partitions = request.plan().outputPartitioning().partitionCount();
        int partition = ticket.partition();
        int consumer = ticket.consumerTaskIndex();
        if (head instanceof ProducerHead.Shuffle shuffle) {
            int first = shuffle.firstPartitionOf(consumer);
            if (consumer >= shuffle.consumerTasks() || partition < first || partition >= first + shuffle.partitionsPerConsumerTask()) {
                throw mismatch("consumer task " + consumer + " asks task " + id() + " for partition " + partition + ", but under " + describe(head)
                        + " it reads partitions [" + first + ", " + (first + shuffle.partitionsPerConsumerTask()) + ") of " + slots
                        + (consumer >= shuffle.consumerTasks() ? " and there are only " + shuffle.consumerTasks() + " consumer tasks" : ""));
            }
            return partition;
        }
        int consumers = head instanceof ProducerHead.Broadcast b ? b.consumerTasks() : 1;
        if (partition >= partitions || consumer >= consumers) {
            throw mismatch("consumer task " + consumer + " asks task " + id() + " for partition " + partition + ", but under " + describe(head)
                    + " the task has " + partitions + " partitions for " + consumers + " consumer task" + (consumers == 1 ? "" : "s"));
        }
        return consumer * partitions + partition;
    }

    private synchronized BroadcastBuffer broadcastBuffer(int partition) {
        if (broadcast[partition] == null) {
            broadcast[partition] = new BroadcastBuffer(request.plan(), partition, context);
        }
        return broadcast[partition];
    }

    private static QuiverException mismatch(String message) {
        return new QuiverException(ErrorCode.PLAN_ERROR, message);
    }

    static String describe(ProducerHead head) {
        if (head instanceof ProducerHead.Shuffle shuffle) {
            return "shuffle Hash([" + shuffle.keys().stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "], P_c="
                    + shuffle.partitionsPerConsumerTask() + " × T_c=" + shuffle.consumerTasks() + ")";
        }
        if (head instanceof ProducerHead.Broadcast broadcastHead) {
            return "broadcast to T_c=" + broadcastHead.consumerTasks();
        }
        return "coalesce";
    }

}
