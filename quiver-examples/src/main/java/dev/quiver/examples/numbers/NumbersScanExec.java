package dev.quiver.examples.numbers;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanChecks;
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
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The scan of {@link NumbersTable}: the numbers {@code [first, end)}, split evenly over its
 * partitions, each row {@code (n, n % buckets)} or the requested subset of those columns. What AQE
 * needs from a leaf (docs/aqe.md, "Custom sources"):
 * <ol>
 *   <li>a {@link NumbersEstimator} splits it into per-task variants, each a sub-range;</li>
 *   <li>{@link #partitionStatistics} are exact: rows, bytes (8 per value of each column) and each
 *       column's distinct count and bounds;</li>
 *   <li>its streams are wrapped in {@link MeteredBatchStream}, so {@code output_rows} grows batch by
 *       batch (AQE's sampler measures how far a partition is with it).</li>
 * </ol>
 * And {@link #CODEC}, so that workers can decode it.
 */
public final class NumbersScanExec extends AbstractExecutionPlan {
    /** How the plan codec writes it: its range, bucket count, partitions and columns. */
    public static final PlanNodeCodec<NumbersScanExec> CODEC = PlanNodeCodec.of("example.numbers_scan", NumbersScanExec.class,
            (node, out, c) -> {
                out.put("first", node.first).put("end", node.end).put("buckets", node.buckets).put("partitions", node.partitions);
                node.columns.forEach(out.putArray("columns")::add);
            },
            (in, children, c) -> {
                List<Integer> columns = new ArrayList<>();
                c.required(in, "columns").forEach(column -> columns.add(column.asInt()));
                return new NumbersScanExec(c.required(in, "first").asLong(), c.required(in, "end").asLong(), c.required(in, "buckets").asLong(),
                        c.requiredInt(in, "partitions"), columns);
            });

    private final long first;
    private final long end;
    private final long buckets;
    private final int partitions;
    /** Which of the table's columns it produces, in order: 0 is {@code n}, 1 is {@code bucket}. */
    private final List<Integer> columns;
    private final Schema schema;

    public NumbersScanExec(long first, long end, long buckets, int partitions, List<Integer> columns) {
        PlanChecks.checkArgument(first <= end, "NumbersScanExec", "an empty or reversed range [%s, %s)", first, end);
        PlanChecks.checkArgument(buckets >= 1 && partitions >= 1, "NumbersScanExec", "needs at least one bucket and one partition, not %s and %s",
                buckets, partitions);
        this.first = first;
        this.end = end;
        this.buckets = buckets;
        this.partitions = partitions;
        this.columns = List.copyOf(columns);
        List<Field> fields = new ArrayList<>();
        for (int column : this.columns) {
            PlanChecks.checkArgument(column == 0 || column == 1, "NumbersScanExec", "has columns 0 and 1, not %s", column);
            fields.add(NumbersTable.SCHEMA.getFields().get(column));
        }
        this.schema = new Schema(fields);
    }

    long first() {
        return first;
    }

    long end() {
        return end;
    }

    long rows() {
        return end - first;
    }

    /** The same scan of {@code [from, to)} in {@code partitionCount} partitions: one task's share. */
    NumbersScanExec range(long from, long to, int partitionCount) {
        return new NumbersScanExec(from, to, buckets, partitionCount, columns);
    }

    @Override
    public String name() {
        return "NumbersScanExec";
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
        return new Partitioning.Unknown(partitions);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        PlanChecks.checkArgument(children.isEmpty(), "NumbersScanExec", "is a leaf; got %s children", children.size());
        return this;
    }

    @Override
    public String displayLine() {
        return "NumbersScanExec: [" + first + ", " + end + ") in " + partitions + " partitions, columns=" + columns;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        long low = partition.isPresent() ? start(partition.getAsInt()) : first;
        long high = partition.isPresent() ? start(partition.getAsInt() + 1) : end;
        return statistics(low, high, buckets, columns);
    }

    /** Exact statistics of the numbers {@code [low, high)} in the given columns. */
    static Statistics statistics(long low, long high, long buckets, List<Integer> columns) {
        long rows = high - low;
        List<ColumnStatistics> stats = new ArrayList<>();
        for (int column : columns) {
            if (rows == 0) {
                stats.add(new ColumnStatistics(Estimate.exact(0), Estimate.exact(0), Optional.empty(), Optional.empty(), true));
            } else if (column == 0) {
                stats.add(new ColumnStatistics(Estimate.exact(0), Estimate.exact(rows), Optional.of(low), Optional.of(high - 1), true));
            } else {
                // the buckets a range covers: all of them once it spans as many numbers
                boolean all = rows >= buckets;
                long lowBucket = all ? 0 : Math.floorMod(low, buckets);
                long highBucket = all ? buckets - 1 : Math.floorMod(high - 1, buckets);
                boolean wraps = !all && highBucket < lowBucket;
                stats.add(new ColumnStatistics(Estimate.exact(0), Estimate.exact(Math.min(rows, buckets)),
                        Optional.of(wraps ? 0L : lowBucket), Optional.of(wraps ? buckets - 1 : highBucket), !wraps));
            }
        }
        return new Statistics(Estimate.exact(rows), Estimate.exact(rows * 8 * columns.size()), stats);
    }

    private long start(int partition) {
        return first + rows() * partition / partitions;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream numbers = new NumbersStream(start(partition), start(partition + 1), context);
        // the live output_rows AQE's sampler reads to know how far the partition is
        return new MeteredBatchStream(numbers, metrics().partition(partition), context);
    }

    /** One partition's numbers, a batch of {@code batch_size} rows at a time. */
    private final class NumbersStream implements BatchStream {
        private final long stop;
        private final TaskContext context;
        private long next;

        NumbersStream(long from, long stop, TaskContext context) {
            this.next = from;
            this.stop = stop;
            this.context = context;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public VectorSchemaRoot next() {
            context.checkCancelled();
            if (next >= stop) {
                return null;
            }
            int rows = (int) Math.min(context.batchSize(), stop - next);
            VectorSchemaRoot batch = VectorSchemaRoot.create(schema, context.allocator());
            try {
                for (int c = 0; c < columns.size(); c++) {
                    BigIntVector vector = (BigIntVector) batch.getVector(c);
                    vector.allocateNew(rows);
                    boolean bucket = columns.get(c) == 1;
                    for (int i = 0; i < rows; i++) {
                        long n = next + i;
                        vector.set(i, bucket ? Math.floorMod(n, buckets) : n);
                    }
                    vector.setValueCount(rows);
                }
                batch.setRowCount(rows);
            } catch (RuntimeException e) {
                batch.close();
                throw e;
            }
            next += rows;
            return batch;
        }

        @Override
        public void close() {
        }
    }
}
