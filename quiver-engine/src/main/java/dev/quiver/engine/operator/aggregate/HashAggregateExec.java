package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * GROUP BY {@code groupExprs} computing {@code aggregates}, in one of the {@link AggregateMode}s.
 * With no group expressions it produces exactly one row, also over empty input (COUNT 0, others
 * NULL) — in PARTIAL mode one state row per partition.
 *
 * <p>In FINAL mode the input is a PARTIAL aggregate's output: {@code groupExprs} are column
 * references to its first columns, and each aggregate reads its state columns
 * ({@link AggregateExpr#stateFields()}) at the positions that follow, in order; the aggregates'
 * {@code args} are those of the PARTIAL aggregate and are not evaluated.
 *
 * <p>Output: the group columns (named {@code groupNames}), then one column per aggregate (FINAL,
 * SINGLE) or its state columns (PARTIAL).
 *
 * <p>Execution: each partition builds its own hash table of groups and
 * accumulators from its whole input, then emits the groups in batches of at most the task's
 * batch size, in order of first appearance. Memory is reserved in a reservation named
 * {@code HashAggregateExec[mode=..., partition=...]}; FINAL and SINGLE with GROUP BY spill
 * partial states of their groups to disk when it cannot grow ({@code spill_enabled}; not with an
 * aggregate that has no partial state, such as DISTINCT or a percentile) and otherwise fail with
 * {@link dev.quiver.engine.error.ResourcesExhaustedException}; PARTIAL emits
 * what it holds and starts over instead, and switches to aggregating each batch on its own once it
 * has seen 100,000 rows form more than half as many groups.
 *
 * <p>Seed rows: with a {@code seedFlag} (a BOOLEAN expression over the input, PARTIAL and SINGLE
 * only), a row where it is TRUE creates its group and adds nothing to it, so that the group is
 * emitted (COUNT 0, other aggregates NULL) even when no other row falls into it. This is how the
 * empty grouping set of {@code GROUP BY ROLLUP/CUBE/GROUPING SETS} yields its one row over empty
 * input ({@link ExpandExec} emits one seed row per partition, before any other row: a PARTIAL
 * aggregate that has switched to aggregating each batch on its own has already emitted the
 * seeded group and drops later seed rows).
 */
public final class HashAggregateExec extends AbstractExecutionPlan {
    private final AggregateMode mode;
    private final List<PhysicalExpr> groupExprs;
    private final List<String> groupNames;
    private final List<AggregateExpr> aggregates;
    private final ExecutionPlan input;
    private final Optional<PhysicalExpr> seedFlag;
    private final Schema schema;
    private final Optional<Schema> stateSchema;

    public HashAggregateExec(AggregateMode mode, List<PhysicalExpr> groupExprs, List<String> groupNames,
            List<AggregateExpr> aggregates, ExecutionPlan input) {
        this(mode, groupExprs, groupNames, aggregates, input, Optional.empty());
    }

    /** @param seedFlag rows where it is TRUE only create their group (see the class comment) */
    public HashAggregateExec(AggregateMode mode, List<PhysicalExpr> groupExprs, List<String> groupNames,
            List<AggregateExpr> aggregates, ExecutionPlan input, Optional<PhysicalExpr> seedFlag) {
        this.mode = requireNonNull(mode, "mode is null");
        this.groupExprs = List.copyOf(requireNonNull(groupExprs, "groupExprs is null"));
        this.groupNames = List.copyOf(requireNonNull(groupNames, "groupNames is null"));
        this.aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
        this.input = requireNonNull(input, "input is null");
        this.seedFlag = requireNonNull(seedFlag, "seedFlag is null");
        if (groupExprs.size() != groupNames.size()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "aggregate has " + groupExprs.size() + " group expressions but " + groupNames.size() + " names");
        }
        if (mode != AggregateMode.SINGLE) {
            aggregates.stream().filter(a -> !a.decomposable()).findFirst().ifPresent(a -> {
                throw new QuiverException(ErrorCode.PLAN_ERROR, a.display() + " has no partial state and needs SINGLE mode, not " + mode);
            });
        }
        if (seedFlag.isPresent() && (mode == AggregateMode.FINAL || !(seedFlag.get().type() instanceof ArrowType.Bool))) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "a seed flag must be BOOLEAN, in PARTIAL or SINGLE mode: " + seedFlag.get().display() + " in " + mode);
        }
        if (mode == AggregateMode.FINAL) {
            int expected = groupExprs.size() + aggregates.stream().mapToInt(a -> a.stateFields().size()).sum();
            int actual = input.schema().getFields().size();
            if (actual != expected) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "FINAL aggregate expects " + expected
                        + " input columns (group keys, then partial states) but its input has " + actual + ": " + input.schema());
            }
        }
        List<Field> keys = new ArrayList<>();
        for (int i = 0; i < groupExprs.size(); i++) {
            keys.add(QuiverTypes.field(groupNames.get(i), groupExprs.get(i).type(), groupExprs.get(i).nullable()));
        }
        this.stateSchema = aggregates.stream().allMatch(AggregateExpr::decomposable) ? Optional.of(stateSchema(keys, aggregates)) : Optional.empty();
        if (mode == AggregateMode.PARTIAL) {
            this.schema = stateSchema.orElseThrow();
        } else {
            List<Field> fields = new ArrayList<>(keys);
            aggregates.forEach(aggregate -> fields.add(aggregate.outputField()));
            this.schema = new Schema(fields);
        }
    }

    private static Schema stateSchema(List<Field> keys, List<AggregateExpr> aggregates) {
        List<Field> fields = new ArrayList<>(keys);
        aggregates.forEach(aggregate -> fields.addAll(aggregate.stateFields()));
        return new Schema(fields);
    }

    /**
     * The rows of partial states: the group keys, then each aggregate's state columns; what
     * PARTIAL emits, FINAL reads and a spilling FINAL or SINGLE aggregate writes to disk. Empty
     * when an aggregate has no partial state.
     */
    Optional<Schema> stateSchema() {
        return stateSchema;
    }

    public AggregateMode mode() {
        return mode;
    }

    public List<PhysicalExpr> groupExprs() {
        return groupExprs;
    }

    public List<String> groupNames() {
        return groupNames;
    }

    public List<AggregateExpr> aggregates() {
        return aggregates;
    }

    public ExecutionPlan input() {
        return input;
    }

    /** The BOOLEAN input expression that marks seed rows, if any. */
    public Optional<PhysicalExpr> seedFlag() {
        return seedFlag;
    }

    @Override
    public String name() {
        return "HashAggregateExec";
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
        return new HashAggregateExec(mode, groupExprs, groupNames, aggregates, children.get(0), seedFlag);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream inputStream = input.execute(partition, context);
        try {
            return new MeteredBatchStream(new AggregateStream(this, partition, inputStream, context), metrics().partition(partition), context);
        } catch (RuntimeException e) {
            inputStream.close();
            throw e;
        }
    }

    @Override
    public String displayLine() {
        return "HashAggregateExec: mode=" + mode
                + ", gby=[" + groupExprs.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ")) + "]"
                + ", aggr=[" + aggregates.stream().map(AggregateExpr::display).collect(Collectors.joining(", ")) + "]"
                + seedFlag.map(flag -> ", seed=" + flag.display()).orElse("");
    }
}
