package dev.quiver.distributed.aqe;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The example custom source of docs/aqe.md ("Custom sources"): the numbers {@code [first, end)} in
 * one BIGINT column {@code n}, split evenly over its partitions. It gives AQE the three things it
 * needs from a leaf:
 * <ol>
 *   <li>a {@link TaskEstimator} ({@link Estimator}) whose {@code scaleUpLeafNode} splits the range
 *       among the tasks AQE chooses;</li>
 *   <li>exact {@link #partitionStatistics}: rows, bytes (8 per value plus the validity bit) and the
 *       column's distinct count and bounds, which the cost model reads;</li>
 *   <li>a live {@code output_rows} metric: its streams are wrapped in {@link MeteredBatchStream}, so
 *       the rows it has output are counted batch by batch, and the sampler measures progress with them.</li>
 * </ol>
 * And a codec ({@link #CODEC}), so that workers can decode it.
 */
final class SequenceSourceExec extends AbstractExecutionPlan {
    static final Schema SCHEMA = new Schema(List.of(Field.notNullable("n", new ArrowType.Int(64, true))));
    static final PlanNodeCodec<SequenceSourceExec> CODEC = PlanNodeCodec.of("test.Sequence", SequenceSourceExec.class,
            (node, out, c) -> out.put("first", node.first).put("end", node.end).put("partitions", node.partitions),
            (in, children, c) -> new SequenceSourceExec(c.required(in, "first").asLong(), c.required(in, "end").asLong(), c.requiredInt(in, "partitions")));

    private final long first;
    private final long end;
    private final int partitions;

    SequenceSourceExec(long first, long end, int partitions) {
        if (end < first || partitions < 1) {
            throw new IllegalArgumentException("a sequence [" + first + ", " + end + ") in " + partitions + " partitions");
        }
        this.first = first;
        this.end = end;
        this.partitions = partitions;
    }

    long rows() {
        return end - first;
    }

    @Override
    public String name() {
        return "SequenceSourceExec";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(partitions);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public String displayLine() {
        return "SequenceSourceExec: [" + first + ", " + end + ") in " + partitions + " partitions";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        long rows = partition.isPresent() ? rangeEnd(partition.getAsInt()) - rangeStart(partition.getAsInt()) : rows();
        long low = partition.isPresent() ? rangeStart(partition.getAsInt()) : first;
        ColumnStatistics column = new ColumnStatistics(Estimate.exact(0), Estimate.exact(rows), rows == 0 ? Optional.empty() : Optional.of(low),
                rows == 0 ? Optional.empty() : Optional.of(low + rows - 1), true);
        return new Statistics(Estimate.exact(rows), Estimate.exact(rows * 8 + (rows + 7) / 8), List.of(column));
    }

    private long rangeStart(int partition) {
        return first + rows() * partition / partitions;
    }

    private long rangeEnd(int partition) {
        return first + rows() * (partition + 1) / partitions;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        long stop = rangeEnd(partition);
        BatchStream numbers = new BatchStream() {
            private long next = rangeStart(partition);

            @Override
            public Schema schema() {
                return SCHEMA;
            }

            @Override
            public VectorSchemaRoot next() {
                context.checkCancelled();
                if (next >= stop) {
                    return null;
                }
                int rows = (int) Math.min(context.batchSize(), stop - next);
                VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, context.allocator());
                BigIntVector vector = (BigIntVector) batch.getVector(0);
                vector.allocateNew(rows);
                for (int i = 0; i < rows; i++) {
                    vector.set(i, next++);
                }
                batch.setRowCount(rows);
                return batch;
            }

            @Override
            public void close() {
            }
        };
        // the live output_rows AQE's sampler reads to know how far the partition is
        return new MeteredBatchStream(numbers, metrics().partition(partition), context);
    }

    /** Its TaskEstimator: one task per {@code rowsPerTask} rows; task t of n reads the t-th n-th of the range. */
    static final class Estimator implements TaskEstimator<SequenceSourceExec> {
        private final long rowsPerTask;

        Estimator(long rowsPerTask) {
            this.rowsPerTask = rowsPerTask;
        }

        @Override
        public Class<SequenceSourceExec> leafClass() {
            return SequenceSourceExec.class;
        }

        @Override
        public TaskCountHint taskCount(SequenceSourceExec leaf, DistributedPlannerSettings settings) {
            int tasks = (int) Math.max(1, Math.min(settings.effectiveMaxTasksPerStage(), (leaf.rows() + rowsPerTask - 1) / rowsPerTask));
            return TaskCountHint.desired(tasks, leaf.displayLine() + ": " + leaf.rows() + " rows / " + rowsPerTask + " per task");
        }

        @Override
        public List<ExecutionPlan> scaleUpLeafNode(SequenceSourceExec leaf, int taskCount, int partitionsPerTask) {
            List<ExecutionPlan> variants = new ArrayList<>();
            for (int t = 0; t < taskCount; t++) {
                variants.add(new SequenceSourceExec(leaf.first + leaf.rows() * t / taskCount, leaf.first + leaf.rows() * (t + 1) / taskCount,
                        partitionsPerTask));
            }
            return variants;
        }
    }
}
