package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test double for the cluster: runs a {@link DistributedPlan} in this JVM, stage by stage,
 * producers first. Each producer task runs its plan under the producer head its consumer's input
 * asks for (a shuffle's {@code Hash(keys, P_c × T_c)} on top), every output partition on its own
 * thread, and keeps each output partition's rows by (stage, task, partition); consumer tasks read
 * them through an {@link ExchangeClient} that looks up each ticket. Every bound task plan goes
 * through the plan codec first, as it would to a worker. It checks the planner's output semantics
 * (boundaries, partition math, leaf shares, serializable task plans) without Flight.
 */
final class LocalStageRunner implements AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final QuiverExecutor executor = new QuiverExecutor("local-stages");
    private final ExecutionConfig config = new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, 2);
    private final Map<String, List<List<Object>>> outputs = new ConcurrentHashMap<>();
    private final List<TaskReport> reports = new ArrayList<>();
    private final PlanCodec codec;

    LocalStageRunner(PlanCodec codec) {
        this.codec = requireNonNull(codec, "codec is null");
    }

    /** The rows of the head stage. */
    List<List<Object>> run(DistributedPlan plan) {
        outputs.clear();
        reports.clear();
        String queryId = "local";
        for (Stage stage : plan.stages()) {
            ExchangeClient exchange = new MapExchange();
            for (int task = 0; task < stage.taskCount(); task++) {
                ExecutionPlan bound = codec.decode(codec.encode(bind(stage.taskPlans().get(task), queryId, task)));
                String taskId = queryId + ".s" + stage.stageId() + ".t" + task;
                try (TaskContext context = new TaskContext(taskId, allocator, MemoryPool.unlimited(), executor, config, Map.of(ExchangeClient.class, exchange))) {
                    TaskId id = new TaskId(queryId, stage.stageId(), task);
                    if (stage.isHead()) {
                        List<List<Object>> rows = PlanExecutor.collectRows(bound, context);
                        reports.add(report(id, bound));
                        return rows;
                    }
                    ExecutionPlan executed = headed(plan, stage, bound);
                    runProducer(executed, stage.stageId(), task, context);
                    reports.add(report(id, executed));
                }
            }
        }
        throw new IllegalStateException("no head stage");
    }

    /** The rows of a single-node plan, run in one task after a trip through the plan codec, as a worker would get it. */
    List<List<Object>> runSingleNode(ExecutionPlan plan) {
        ExecutionPlan decoded = codec.decode(codec.encode(plan));
        try (TaskContext context = new TaskContext("local.single", allocator, MemoryPool.unlimited(), executor, config, Map.of())) {
            return PlanExecutor.collectRows(decoded, context);
        }
    }

    /** What each task of the last run reported, as a worker would: the executed plan's metrics, the head on top. */
    List<TaskReport> reports() {
        return List.copyOf(reports);
    }

    private static TaskReport report(TaskId id, ExecutionPlan executed) {
        return new TaskReport(id, new WorkerAddress("local", 1000 + id.taskIndex()), TaskState.FINISHED, OperatorMetricsSnapshot.of(executed),
                Optional.empty());
    }

    /** The task plan with its producer head: a hash repartition into {@code P_c × T_c} for a shuffle. */
    private static ExecutionPlan headed(DistributedPlan plan, Stage stage, ExecutionPlan task) {
        Stage consumer = plan.stage(stage.output().orElseThrow().consumerStageId());
        StageInputExec input = inputs(consumer.plan()).stream().filter(i -> i.producerStageId() == stage.stageId()).findFirst().orElseThrow();
        ProducerHead head = input.producerHead();
        if (head instanceof ProducerHead.Shuffle shuffle) {
            return new RepartitionExec(task, new Partitioning.Hash(shuffle.keys(), shuffle.outputPartitions(stage.partitionsPerTask())));
        }
        return task;
    }

    private void runProducer(ExecutionPlan plan, int stageId, int task, TaskContext context) {
        int partitions = plan.outputPartitioning().partitionCount();
        CountDownLatch done = new CountDownLatch(partitions);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            executor.execute("local-s" + stageId + "-t" + task + "-p" + p, () -> {
                List<List<Object>> rows = new ArrayList<>();
                try (BatchStream stream = plan.execute(partition, context)) {
                    VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        try (VectorSchemaRoot owned = batch) {
                            rows.addAll(Batches.toRows(owned));
                        }
                    }
                    outputs.put(key(stageId, task, partition), rows);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    context.fail(e);
                } finally {
                    done.countDown();
                }
            });
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("stage " + stageId + " task " + task + " failed", failure.get());
        }
    }

    private static ExecutionPlan bind(ExecutionPlan plan, String queryId, int task) {
        if (plan instanceof StageInputExec input) {
            List<WorkerAddress> workers = IntStream.range(0, input.producerTasks()).mapToObj(i -> new WorkerAddress("local", 1000 + i)).toList();
            return input.bind(queryId, task, workers);
        }
        if (plan.children().isEmpty()) {
            return plan;
        }
        return plan.withNewChildren(plan.children().stream().map(child -> bind(child, queryId, task)).toList());
    }

    /** The stage inputs of {@code plan}, in pre-order. */
    static List<StageInputExec> inputs(ExecutionPlan plan) {
        List<StageInputExec> inputs = new ArrayList<>();
        if (plan instanceof StageInputExec input) {
            inputs.add(input);
        }
        plan.children().forEach(child -> inputs.addAll(inputs(child)));
        return inputs;
    }

    private static String key(int stage, int task, int partition) {
        return stage + "/" + task + "/" + partition;
    }

    @Override
    public void close() {
        outputs.clear();
        executor.close();
        allocator.close();
    }

    /** Serves each ticket from the rows its producer task kept. */
    private final class MapExchange implements ExchangeClient {
        @Override
        public BatchStream open(List<RemotePartition> sources, Schema schema, TaskContext context) {
            List<List<Object>> rows = new ArrayList<>();
            for (RemotePartition source : sources) {
                var ticket = source.ticket();
                List<List<Object>> partition = outputs.get(key(ticket.producerTask().stageId(), ticket.producerTask().taskIndex(), ticket.partition()));
                if (partition == null) {
                    throw new QuiverException(ErrorCode.INTERNAL_ERROR, "no output for " + ticket);
                }
                rows.addAll(partition);
            }
            return new RowsStream(schema, rows, context);
        }
    }

    private static final class RowsStream implements BatchStream {
        private final Schema schema;
        private final Iterator<List<List<Object>>> chunks;
        private final TaskContext context;

        RowsStream(Schema schema, List<List<Object>> rows, TaskContext context) {
            this.schema = requireNonNull(schema, "schema is null");
            this.context = context;
            List<List<List<Object>>> split = new ArrayList<>();
            for (int start = 0; start < rows.size(); start += context.batchSize()) {
                split.add(rows.subList(start, Math.min(rows.size(), start + context.batchSize())));
            }
            this.chunks = split.iterator();
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public VectorSchemaRoot next() {
            return chunks.hasNext() ? Batches.fromRows(schema, chunks.next(), context.allocator()) : null;
        }

        @Override
        public void close() {}
    }
}
