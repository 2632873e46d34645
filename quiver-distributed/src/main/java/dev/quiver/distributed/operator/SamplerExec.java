package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The AQE sampler of a producer stage (DESIGN §5 steps 4–5), placed between the stage plan and
 * its producer head: {@code RepartitionExec(SamplerExec(stagePlan), Hash(keys, P_c × T_c))}. Each
 * partition pulls up to {@code sampleBytesPerPartition} (or to the end of its stream), reports a
 * {@link PartitionSample} to the {@link SampleSink} of the task's context, then replays what it
 * pulled followed by the rest (see {@link SamplingBatchStream}). Output, schema and partitioning
 * are the input's.
 *
 * <p>Its metrics: {@code output_rows}/{@code output_bytes} of what it handed on, and as peak memory
 * the most its partition's buffer held.
 *
 * <p>A worker may sample before any consumer asks for data: {@link #sample(int, TaskContext)} runs
 * a partition's sampling phase on the calling thread, and the later {@link #execute} of that
 * partition (by the head) returns the same stream, which replays the buffered batches. Partitions
 * sampled but never executed are released when the task's context closes. Both calls must use the
 * same {@code SamplerExec} instance and the same {@link TaskContext}: the streams are the node's
 * shared state in that context.
 *
 * @param keys the producer head's hash keys over the input's schema; empty for a coalesce or
 *        broadcast head (no key sketch then)
 */
public final class SamplerExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<PhysicalExpr> keys;
    private final long sampleBytesPerPartition;
    private final DriverLeaves driver;

    public SamplerExec(ExecutionPlan input, List<PhysicalExpr> keys, long sampleBytesPerPartition) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.sampleBytesPerPartition = sampleBytesPerPartition;
        if (sampleBytesPerPartition < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "SamplerExec needs a sample budget of at least 1 byte per partition (distributed"
                    + ".sample_bytes_per_partition), not " + sampleBytesPerPartition);
        }
        this.driver = DriverLeaves.of(input);
    }

    public ExecutionPlan input() {
        return input;
    }

    public List<PhysicalExpr> keys() {
        return keys;
    }

    public long sampleBytesPerPartition() {
        return sampleBytesPerPartition;
    }

    @Override
    public String name() {
        return "SamplerExec";
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "SamplerExec takes one input, not " + children.size());
        }
        return new SamplerExec(children.get(0), keys, sampleBytesPerPartition);
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return input.partitionStatistics(partition);
    }

    /**
     * Samples {@code partition} now (if it was not yet), on this thread, and returns its sample;
     * empty if the partition's stream was already closed. The sample also goes to the sink.
     */
    public Optional<PartitionSample> sample(int partition, TaskContext context) {
        checkPartition(partition);
        return state(context).stream(partition, this, context).sample();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        SamplingBatchStream stream = state(context).handOut(partition, this, context);
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    private SamplerState state(TaskContext context) {
        return context.sharedState(this, SamplerState.class, () -> new SamplerState(outputPartitioning().partitionCount()));
    }

    SamplingBatchStream newStream(int partition, TaskContext context) {
        return new SamplingBatchStream(input.execute(partition, context), partition, sampleBytesPerPartition, keys, driver,
                context.service(SampleSink.class), context, metrics().partition(partition));
    }

    @Override
    public String displayLine() {
        return "SamplerExec: " + ByteSize.formatBytes(sampleBytesPerPartition) + " per partition"
                + (keys.isEmpty() ? "" : ", keys=[" + keys.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "]");
    }

    /** The partitions' samplers of one task: created by the first of sample() or execute(), closed with the task's context. */
    private static final class SamplerState implements AutoCloseable {
        private final SamplingBatchStream[] streams;
        private final boolean[] handedOut;

        SamplerState(int partitions) {
            this.streams = new SamplingBatchStream[partitions];
            this.handedOut = new boolean[partitions];
        }

        synchronized SamplingBatchStream stream(int partition, SamplerExec node, TaskContext context) {
            if (streams[partition] == null) {
                streams[partition] = node.newStream(partition, context);
            }
            return streams[partition];
        }

        synchronized SamplingBatchStream handOut(int partition, SamplerExec node, TaskContext context) {
            if (handedOut[partition]) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "SamplerExec partition " + partition + " was executed twice in one task");
            }
            handedOut[partition] = true;
            return stream(partition, node, context);
        }

        @Override
        public void close() {
            SamplingBatchStream[] toClose;
            synchronized (this) {
                toClose = streams.clone();
            }
            for (SamplingBatchStream stream : toClose) {
                if (stream != null) {
                    stream.close();
                }
            }
        }
    }
}
