package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The consumer side of a network boundary: a leaf of a consumer stage that reads the output of
 * producer stage {@code producerStageId} from the workers its tasks ran on (DESIGN §4).
 *
 * <p>Partition math:
 * <ul>
 *   <li>{@link BoundaryKind#SHUFFLE}: {@code P_c} partitions, hash-partitioned on {@code keys};
 *       partition p of consumer task t reads producer partition {@code P_c·t + p} of every
 *       producer task.</li>
 *   <li>{@link BoundaryKind#COALESCE} and {@link BoundaryKind#BROADCAST}: {@code T_p × P_p}
 *       partitions; partition q reads partition {@code q mod P_p} of producer task
 *       {@code q div P_p}. A coalesce has one consumer task; a broadcast replays the same
 *       partitions to each of its {@code T_c} consumer tasks.</li>
 * </ul>
 *
 * <p>The planner creates it unbound; the coordinator {@linkplain #bind binds} it for each consumer
 * task to the query, the task index and where the producer tasks run, so that input locations
 * travel inside the stage plan and data never passes through the coordinator.
 */
public final class StageInputExec extends AbstractExecutionPlan {
    private final int producerStageId;
    private final BoundaryKind kind;
    private final Schema schema;
    private final List<PhysicalExpr> keys;
    private final int producerTasks;
    private final int producerPartitions;
    private final int consumerTasks;
    private final int partitionsPerConsumerTask;
    private final Statistics statistics;
    private final Optional<Binding> binding;

    /** Where one consumer task reads from: its query, its index and producer task i's worker at position i. */
    public record Binding(String queryId, int consumerTaskIndex, List<WorkerAddress> producerWorkers) {
        public Binding {
            requireNonNull(queryId, "queryId is null");
            producerWorkers = List.copyOf(requireNonNull(producerWorkers, "producerWorkers is null"));
        }
    }

    /**
     * @param keys the shuffle's hash keys over {@code schema} (empty for coalesce and broadcast)
     * @param partitionsPerConsumerTask {@code P_c}; for coalesce and broadcast it must be {@code T_p × P_p}
     * @param statistics what is known of the producer stage's whole output (estimated or sampled)
     */
    public StageInputExec(int producerStageId, BoundaryKind kind, Schema schema, List<PhysicalExpr> keys, int producerTasks, int producerPartitions,
            int consumerTasks, int partitionsPerConsumerTask, Statistics statistics, Optional<Binding> binding) {
        this.producerStageId = producerStageId;
        this.kind = requireNonNull(kind, "kind is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.producerTasks = producerTasks;
        this.producerPartitions = producerPartitions;
        this.consumerTasks = consumerTasks;
        this.partitionsPerConsumerTask = partitionsPerConsumerTask;
        this.statistics = requireNonNull(statistics, "statistics is null");
        this.binding = requireNonNull(binding, "binding is null");
        if (producerTasks < 1 || producerPartitions < 1 || consumerTasks < 1 || partitionsPerConsumerTask < 1) {
            throw plan("task and partition counts must be at least 1");
        }
        if ((kind == BoundaryKind.SHUFFLE) == keys.isEmpty()) {
            throw plan("a shuffle input needs hash keys, and only a shuffle input has them");
        }
        if (kind == BoundaryKind.COALESCE && consumerTasks != 1) {
            throw plan("a coalesce input has exactly one consumer task");
        }
        if (kind != BoundaryKind.SHUFFLE && partitionsPerConsumerTask != producerTasks * producerPartitions) {
            throw plan("a " + kind + " input reads all T_p × P_p = " + producerTasks * producerPartitions + " producer partitions");
        }
        binding.ifPresent(bound -> {
            if (bound.consumerTaskIndex() < 0 || bound.consumerTaskIndex() >= consumerTasks) {
                throw plan("consumer task " + bound.consumerTaskIndex() + " is outside the " + consumerTasks + " consumer tasks");
            }
            if (bound.producerWorkers().size() != producerTasks) {
                throw plan("bound to " + bound.producerWorkers().size() + " producer workers for " + producerTasks + " producer tasks");
            }
        });
    }

    private QuiverException plan(String problem) {
        return new QuiverException(ErrorCode.PLAN_ERROR, "StageInputExec from stage " + producerStageId + ": " + problem);
    }

    /** This input for one consumer task. */
    public StageInputExec bind(String queryId, int consumerTaskIndex, List<WorkerAddress> producerWorkers) {
        return new StageInputExec(producerStageId, kind, schema, keys, producerTasks, producerPartitions, consumerTasks, partitionsPerConsumerTask,
                statistics, Optional.of(new Binding(queryId, consumerTaskIndex, producerWorkers)));
    }

    /** This input with other producer or consumer counts (AQE sizes stages after planning). */
    public StageInputExec withCounts(int producerTasks, int producerPartitions, int consumerTasks, int partitionsPerConsumerTask) {
        return new StageInputExec(producerStageId, kind, schema, keys, producerTasks, producerPartitions, consumerTasks, partitionsPerConsumerTask,
                statistics, Optional.empty());
    }

    public StageInputExec withStatistics(Statistics statistics) {
        return new StageInputExec(producerStageId, kind, schema, keys, producerTasks, producerPartitions, consumerTasks, partitionsPerConsumerTask,
                statistics, binding);
    }

    public int producerStageId() {
        return producerStageId;
    }

    public BoundaryKind kind() {
        return kind;
    }

    public List<PhysicalExpr> keys() {
        return keys;
    }

    public int producerTasks() {
        return producerTasks;
    }

    public int producerPartitions() {
        return producerPartitions;
    }

    public int consumerTasks() {
        return consumerTasks;
    }

    public int partitionsPerConsumerTask() {
        return partitionsPerConsumerTask;
    }

    public Statistics statistics() {
        return statistics;
    }

    public Optional<Binding> binding() {
        return binding;
    }

    /** The head every producer task of this boundary must be bound to. */
    public ProducerHead producerHead() {
        return switch (kind) {
            case SHUFFLE -> new ProducerHead.Shuffle(keys, partitionsPerConsumerTask, consumerTasks);
            case COALESCE -> new ProducerHead.Coalesce();
            case BROADCAST -> new ProducerHead.Broadcast(consumerTasks);
        };
    }

    /** The remote partitions that partition {@code partition} of this (bound) consumer task reads. */
    public List<RemotePartition> sourcesOf(int partition) {
        checkPartition(partition);
        Binding bound = binding.orElseThrow(() -> plan("not bound to a consumer task; only the coordinator's bound stage plans can run"));
        ProducerHead head = producerHead();
        List<RemotePartition> sources = new ArrayList<>();
        if (kind == BoundaryKind.SHUFFLE) {
            int producerPartition = partitionsPerConsumerTask * bound.consumerTaskIndex() + partition;
            for (int task = 0; task < producerTasks; task++) {
                sources.add(source(bound, task, producerPartition, head));
            }
        } else {
            sources.add(source(bound, partition / producerPartitions, partition % producerPartitions, head));
        }
        return sources;
    }

    private RemotePartition source(Binding bound, int producerTask, int producerPartition, ProducerHead head) {
        TaskId producer = new TaskId(bound.queryId(), producerStageId, producerTask);
        return new RemotePartition(bound.producerWorkers().get(producerTask),
                new DataTicket(producer, producerPartition, head, bound.consumerTaskIndex()));
    }

    @Override
    public String name() {
        return "StageInputExec";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return kind == BoundaryKind.SHUFFLE
                ? new Partitioning.Hash(keys, partitionsPerConsumerTask)
                : new Partitioning.Unknown(partitionsPerConsumerTask);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (!children.isEmpty()) {
            throw plan("a leaf takes no children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return partition.isEmpty() ? statistics : Statistics.unknown(schema);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        List<RemotePartition> sources = sourcesOf(partition);
        BatchStream remote = context.service(ExchangeClient.class).open(sources, schema, context);
        return MeteredBatchStream.waitingOn(remote, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        String shown = switch (kind) {
            case SHUFFLE -> "shuffle Hash([" + keys.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "], "
                    + partitionsPerConsumerTask + " per task × " + consumerTasks + " tasks)";
            case COALESCE -> "coalesce " + producerTasks + " tasks × " + producerPartitions + " partitions";
            case BROADCAST -> "broadcast " + producerTasks + " tasks × " + producerPartitions + " partitions to " + consumerTasks + " tasks";
        };
        return "StageInputExec: stage=" + producerStageId + ", " + shown
                + binding.map(b -> ", task=" + b.consumerTaskIndex() + ", workers=" + b.producerWorkers()).orElse("");
    }
}
