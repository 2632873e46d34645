package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.kernel.Vectors;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The input of a {@code GROUP BY GROUPING SETS / ROLLUP / CUBE} aggregate: every input row once per
 * grouping set, with the group keys of that set and NULL for the others, and the set's ordinal, so
 * that one ordinary {@link HashAggregateExec} over (keys, ordinal) computes every set at once — and
 * distributes as any aggregate does, by repartitioning on (keys, ordinal). (Spark's Expand; the
 * alternative, a union of one aggregate per set, reads the input once per set.)
 *
 * <p>Output columns: the input's columns (for the aggregates' arguments, which see the values
 * the keys had), the keys (each named as in {@code keyNames}, nullable), {@code $grouping_set}
 * (BIGINT: the ordinal of the row's grouping set in {@code groupingSets}) and, when a grouping set
 * is empty, {@code $seed} (BOOLEAN): each partition emits one seed row first — every other column
 * NULL, the empty set's ordinal, {@code $seed} TRUE — which the aggregate turns into the empty
 * set's group without counting it ({@link HashAggregateExec#seedFlag()}), so that {@code ()} yields
 * its one row even over empty input, as SQL requires. Every other row has {@code $seed} FALSE.
 *
 * <p>Each input batch becomes one output batch per grouping set, sharing the input's buffers.
 */
public final class ExpandExec extends AbstractExecutionPlan {
    public static final String GROUPING_SET = "$grouping_set";
    public static final String SEED = "$seed";

    private final ExecutionPlan input;
    private final List<PhysicalExpr> keys;
    private final List<String> keyNames;
    private final List<List<Integer>> groupingSets;
    private final int emptySet;
    private final Schema schema;

    /**
     * @param keys the group keys, over the input
     * @param groupingSets per grouping set, the positions in {@code keys} it groups by (distinct sets)
     */
    public ExpandExec(ExecutionPlan input, List<PhysicalExpr> keys, List<String> keyNames, List<List<Integer>> groupingSets) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.keyNames = List.copyOf(requireNonNull(keyNames, "keyNames is null"));
        this.groupingSets = requireNonNull(groupingSets, "groupingSets is null").stream().map(List::copyOf).toList();
        if (keys.size() != keyNames.size()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ExpandExec has " + keys.size() + " keys but " + keyNames.size() + " names");
        }
        if (groupingSets.isEmpty() || groupingSets.size() != groupingSets.stream().distinct().count()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ExpandExec needs distinct grouping sets: " + groupingSets);
        }
        for (List<Integer> set : this.groupingSets) {
            if (set.stream().anyMatch(k -> k < 0 || k >= keys.size())) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "grouping set " + set + " refers to a key beyond the " + keys.size() + " keys");
            }
        }
        this.emptySet = this.groupingSets.indexOf(List.of());
        List<Field> fields = new ArrayList<>();
        for (Field field : input.schema().getFields()) {
            // the seed row is NULL in every input column
            fields.add(emptySet < 0 || field.isNullable() ? field : QuiverTypes.field(field.getName(), field.getType(), true));
        }
        for (int k = 0; k < keys.size(); k++) {
            fields.add(QuiverTypes.field(keyNames.get(k), keys.get(k).type(), true));
        }
        fields.add(QuiverTypes.field(GROUPING_SET, QuiverTypes.INT64, false));
        if (emptySet >= 0) {
            fields.add(QuiverTypes.field(SEED, QuiverTypes.BOOLEAN, false));
        }
        this.schema = new Schema(fields);
    }

    public ExecutionPlan input() {
        return input;
    }

    public List<PhysicalExpr> keys() {
        return keys;
    }

    public List<String> keyNames() {
        return keyNames;
    }

    public List<List<Integer>> groupingSets() {
        return groupingSets;
    }

    /** Whether a grouping set is empty, so that the output has the {@code $seed} column and seed rows. */
    public boolean hasSeed() {
        return emptySet >= 0;
    }

    @Override
    public String name() {
        return "ExpandExec";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(input.outputPartitioning().partitionCount());
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new ExpandExec(children.get(0), keys, keyNames, groupingSets);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        PartitionMetrics metrics = metrics().partition(partition);
        return new MeteredBatchStream(new ExpandStream(input.execute(partition, context), context, metrics), metrics, context);
    }

    @Override
    public String displayLine() {
        return "ExpandExec: keys=[" + keys.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "], sets="
                + groupingSets.stream().map(set -> set.stream().map(keyNames::get).collect(Collectors.joining(", ", "(", ")")))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** One partition: the seed row (if any), then each input batch once per grouping set. */
    private final class ExpandStream implements BatchStream {
        private final BatchStream inputStream;
        private final TaskContext context;
        private final PartitionMetrics metrics;
        private boolean seeded = emptySet < 0;
        private VectorSchemaRoot current;
        private int nextSet;

        ExpandStream(BatchStream inputStream, TaskContext context, PartitionMetrics metrics) {
            this.inputStream = inputStream;
            this.context = context;
            this.metrics = metrics;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public VectorSchemaRoot next() {
            if (!seeded) {
                seeded = true;
                return seedRow();
            }
            while (current == null) {
                VectorSchemaRoot batch = inputStream.next();
                if (batch == null) {
                    return null;
                }
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                current = batch;
                nextSet = 0;
            }
            long start = System.nanoTime();
            try {
                VectorSchemaRoot out = expand(current, nextSet++);
                if (nextSet == groupingSets.size()) {
                    current.close();
                    current = null;
                }
                return out;
            } finally {
                metrics.addElapsedCompute(System.nanoTime() - start);
            }
        }

        private VectorSchemaRoot expand(VectorSchemaRoot batch, int set) {
            int rows = batch.getRowCount();
            List<Field> fields = schema.getFields();
            List<FieldVector> vectors = new ArrayList<>(fields.size());
            try {
                for (FieldVector vector : batch.getFieldVectors()) {
                    vectors.add(Vectors.share(vector, rows, context.allocator()));
                }
                int column = vectors.size();
                List<Integer> present = groupingSets.get(set);
                for (int k = 0; k < keys.size(); k++) {
                    Field field = fields.get(column++);
                    vectors.add(present.contains(k) ? keys.get(k).evaluate(batch, context.allocator()) : Take.nulls(field, rows, context.allocator()));
                }
                vectors.add(Vectors.constant(QuiverTypes.INT64, (long) set, rows, context.allocator()));
                if (emptySet >= 0) {
                    vectors.add(Vectors.constant(QuiverTypes.BOOLEAN, false, rows, context.allocator()));
                }
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            return Batches.of(schema, vectors, rows);
        }

        private VectorSchemaRoot seedRow() {
            List<Field> fields = schema.getFields();
            List<FieldVector> vectors = new ArrayList<>(fields.size());
            try {
                for (int c = 0; c < fields.size() - 2; c++) {
                    vectors.add(Take.nulls(fields.get(c), 1, context.allocator()));
                }
                vectors.add(Vectors.constant(QuiverTypes.INT64, (long) emptySet, 1, context.allocator()));
                vectors.add(Vectors.constant(QuiverTypes.BOOLEAN, true, 1, context.allocator()));
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            return Batches.of(schema, vectors, 1);
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
            inputStream.close();
        }
    }
}
