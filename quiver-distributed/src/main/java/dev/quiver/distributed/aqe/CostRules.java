package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.ExpandExec;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.limit.LocalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.stats.Statistics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The per-operator formulas of the {@link CostModel}, one small rule per operator class
 * (docs/aqe.md has the table). A rule sees its node and its inputs' estimated output and gives the
 * node's estimated output and its own work in bytes. An operator without a rule does work equal to
 * its inputs' bytes and outputs what its first input outputs; a custom operator can bring its own
 * rule through {@link #builder()}.
 */
public final class CostRules {
    /** Rows a filter keeps when nothing better is known (DataFusion's default selectivity). */
    public static final double FILTER_SELECTIVITY = 0.2;
    /** Rows a semi or anti join keeps of its output side. */
    public static final double SEMI_JOIN_SELECTIVITY = 0.5;
    /** Building a hash table (join build side, aggregate state) touches every byte about twice: copy in, then probe or emit. */
    public static final double HASH_BUILD_FACTOR = 2.0;
    /** A full sort buffers its input and takes it out again in order. */
    public static final double SORT_FACTOR = 2.0;
    /** Bytes of work per evaluated pair of a nested-loop join. */
    public static final double PAIR_BYTES = 8.0;
    /** Assumed width of a string or binary value, when the input does not tell. */
    static final double VARIABLE_WIDTH = 16.0;

    /** Estimated output of an operator, over all its partitions. */
    public record Estimate(double rows, double bytes) {
        public Estimate {
            rows = Math.max(0, rows);
            bytes = Math.max(0, bytes);
        }

        public long roundedRows() {
            return Math.round(Math.min(Long.MAX_VALUE, rows));
        }

        public long roundedBytes() {
            return Math.round(Math.min(Long.MAX_VALUE, bytes));
        }

        /** The same rows with their bytes scaled by {@code factor}. */
        Estimate scaled(double factor) {
            return new Estimate(rows * factor, bytes * factor);
        }
    }

    /** A rule's answer: the node's output, its own work, and the formula for plans and docs. */
    public record Result(Estimate output, double workBytes, String formula) {
        public Result {
            requireNonNull(output, "output is null");
            requireNonNull(formula, "formula is null");
            workBytes = Math.max(0, workBytes);
        }
    }

    /** The formula of one operator class. */
    @FunctionalInterface
    public interface Rule<T extends ExecutionPlan> {
        Result apply(T node, List<Estimate> inputs);
    }

    private final Map<Class<?>, Rule<?>> rules;

    private CostRules(Map<Class<?>, Rule<?>> rules) {
        this.rules = Map.copyOf(rules);
    }

    /** The rules for every built-in operator. */
    public static CostRules builtin() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Adds rules for custom operators to the built-in ones. */
    public static final class Builder {
        private final Map<Class<?>, Rule<?>> rules = new HashMap<>();

        private Builder() {
            add(FilterExec.class, CostRules::filter);
            add(ProjectionExec.class, CostRules::projection);
            add(HashAggregateExec.class, CostRules::aggregate);
            add(ExpandExec.class, CostRules::expand);
            add(HashJoinExec.class, CostRules::hashJoin);
            add(NestedLoopJoinExec.class, CostRules::nestedLoop);
            add(SortExec.class, CostRules::sort);
            add(GlobalLimitExec.class, (node, inputs) -> limit(node, inputs.get(0), node.fetch().isPresent()
                    ? node.skip() + node.fetch().getAsLong() : Long.MAX_VALUE));
            add(LocalLimitExec.class, (node, inputs) -> limit(node, inputs.get(0),
                    node.fetch() * (double) node.outputPartitioning().partitionCount()));
            add(UnionExec.class, CostRules::union);
            add(RepartitionExec.class, (node, inputs) -> new Result(inputs.get(0), inputs.get(0).bytes(), "copy input " + bytes(inputs.get(0))));
            add(CoalescePartitionsExec.class, (node, inputs) -> new Result(inputs.get(0), 0, "passes batches through"));
            add(SortPreservingMergeExec.class, (node, inputs) -> new Result(inputs.get(0), inputs.get(0).bytes(),
                    "merge input " + bytes(inputs.get(0))));
            add(SamplerExec.class, (node, inputs) -> new Result(inputs.get(0), 0, "replays what it buffered"));
        }

        public <T extends ExecutionPlan> Builder add(Class<T> operator, Rule<T> rule) {
            rules.put(requireNonNull(operator, "operator is null"), requireNonNull(rule, "rule is null"));
            return this;
        }

        public CostRules build() {
            return new CostRules(rules);
        }
    }

    /** The rule of {@code node}'s class (or its nearest superclass with one), else the default. */
    @SuppressWarnings("unchecked")
    Rule<ExecutionPlan> ruleFor(ExecutionPlan node) {
        for (Class<?> type = node.getClass(); type != null; type = type.getSuperclass()) {
            Rule<?> rule = rules.get(type);
            if (rule != null) {
                return (Rule<ExecutionPlan>) rule;
            }
        }
        return CostRules::unknownOperator;
    }

    /** A leaf reads (or receives) its output once: work = its bytes. */
    static Result leaf(ExecutionPlan node, Statistics statistics) {
        double rows = statistics.rowCount().isKnown() ? statistics.rowCount().value() : 0;
        double bytes = statistics.totalBytes().isKnown() ? statistics.totalBytes().value() : rows * width(node.schema());
        Estimate output = new Estimate(rows, bytes);
        String what = node instanceof StageInputExec ? "receive " : "read ";
        String known = statistics.rowCount().isKnown() || statistics.totalBytes().isKnown() ? "" : " (no statistics: counted as empty)";
        return new Result(output, bytes, what + bytes(output) + known);
    }

    private static Result filter(FilterExec node, List<Estimate> inputs) {
        Estimate input = inputs.get(0);
        return new Result(input.scaled(FILTER_SELECTIVITY), input.bytes(), "evaluate over input " + bytes(input) + ", keeps " + FILTER_SELECTIVITY);
    }

    private static Result projection(ProjectionExec node, List<Estimate> inputs) {
        Estimate input = inputs.get(0);
        Estimate output = new Estimate(input.rows(), input.rows() * width(node.schema()) * stringCorrection(node.input().schema(), input));
        return new Result(output, output.bytes(), "materialize output " + bytes(output));
    }

    private static Result aggregate(HashAggregateExec node, List<Estimate> inputs) {
        Estimate input = inputs.get(0);
        boolean grouped = !node.groupExprs().isEmpty();
        int partitions = node.outputPartitioning().partitionCount();
        double rows = grouped ? input.rows() : (node.mode() == AggregateMode.PARTIAL ? partitions : 1);
        Estimate output = new Estimate(rows, rows * width(node.schema()));
        if (node.mode() == AggregateMode.PARTIAL) {
            return new Result(output, input.bytes(), "hash and update over input " + bytes(input));
        }
        return new Result(output, HASH_BUILD_FACTOR * input.bytes(), HASH_BUILD_FACTOR + " × input " + bytes(input) + " (group states)");
    }

    /** GROUPING SETS: every input row once per grouping set, with the keys and the set's ordinal added. */
    private static Result expand(ExpandExec node, List<Estimate> inputs) {
        Estimate input = inputs.get(0);
        double rows = input.rows() * node.groupingSets().size();
        Estimate output = new Estimate(rows, rows * width(node.schema()) * stringCorrection(node.input().schema(), input));
        return new Result(output, output.bytes(), node.groupingSets().size() + " × input: " + bytes(output));
    }

    private static Result hashJoin(HashJoinExec node, List<Estimate> inputs) {
        Estimate build = inputs.get(0);
        Estimate probe = inputs.get(1);
        double rows = joinRows(node.joinType(), build, probe, 1.0);
        Estimate output = new Estimate(rows, rows * width(node.schema()));
        double work = HASH_BUILD_FACTOR * build.bytes() + probe.bytes() + output.bytes();
        return new Result(output, work, "build " + HASH_BUILD_FACTOR + " × " + bytes(build) + " + probe " + bytes(probe) + " + output " + bytes(output));
    }

    private static Result nestedLoop(NestedLoopJoinExec node, List<Estimate> inputs) {
        Estimate build = inputs.get(0);
        Estimate probe = inputs.get(1);
        double pairs = build.rows() * probe.rows();
        double rows = joinRows(node.joinType(), build, probe, node.filter().isPresent() ? FILTER_SELECTIVITY : 1.0);
        if (node.joinType().emitsPairs()) {
            rows = pairs * (node.filter().isPresent() ? FILTER_SELECTIVITY : 1.0);
        }
        Estimate output = new Estimate(rows, rows * width(node.schema()));
        double work = build.bytes() + probe.bytes() + PAIR_BYTES * pairs + output.bytes();
        return new Result(output, work, "inputs " + bytes(build) + " + " + bytes(probe) + " + " + PAIR_BYTES + " B × " + Math.round(pairs)
                + " pairs + output " + bytes(output));
    }

    /**
     * Rows of a join: one output row per row of the larger input for the pairing joins (a
     * foreign-key join matches each probe row about once), a share of the output side for semi
     * and anti joins.
     */
    private static double joinRows(JoinType type, Estimate left, Estimate right, double selectivity) {
        return switch (type) {
            case INNER, LEFT, RIGHT, FULL -> Math.max(left.rows(), right.rows()) * selectivity;
            case LEFT_SEMI, LEFT_ANTI -> left.rows() * SEMI_JOIN_SELECTIVITY;
            case RIGHT_SEMI, RIGHT_ANTI -> right.rows() * SEMI_JOIN_SELECTIVITY;
        };
    }

    private static Result sort(SortExec node, List<Estimate> inputs) {
        Estimate input = inputs.get(0);
        if (node.fetch().isPresent()) {
            double keep = Math.min(input.rows(), node.fetch().getAsLong() * (double) node.outputPartitioning().partitionCount());
            return new Result(input.scaled(input.rows() == 0 ? 0 : keep / input.rows()), input.bytes(), "top-k over input " + bytes(input));
        }
        return new Result(input, SORT_FACTOR * input.bytes(), SORT_FACTOR + " × input " + bytes(input));
    }

    private static Result limit(ExecutionPlan node, Estimate input, double fetch) {
        double keep = Math.min(input.rows(), fetch);
        Estimate output = input.scaled(input.rows() == 0 ? 0 : keep / input.rows());
        return new Result(output, output.bytes(), "passes " + bytes(output));
    }

    private static Result union(UnionExec node, List<Estimate> inputs) {
        double rows = inputs.stream().mapToDouble(Estimate::rows).sum();
        double bytes = inputs.stream().mapToDouble(Estimate::bytes).sum();
        return new Result(new Estimate(rows, bytes), 0, "concatenates its inputs");
    }

    private static Result unknownOperator(ExecutionPlan node, List<Estimate> inputs) {
        double work = inputs.stream().mapToDouble(Estimate::bytes).sum();
        return new Result(inputs.get(0), work, "no cost rule for " + node.name() + ": its inputs' bytes " + ByteSize.formatBytes(Math.round(work)));
    }

    /**
     * How much wider the input's rows really are than its schema's nominal width (strings longer
     * than assumed), applied to a projection's nominal output width.
     */
    private static double stringCorrection(Schema inputSchema, Estimate input) {
        double nominal = width(inputSchema);
        if (input.rows() <= 0 || nominal <= 0 || input.bytes() <= 0) {
            return 1.0;
        }
        return Math.max(0.25, Math.min(4.0, input.bytes() / input.rows() / nominal));
    }

    /** The nominal bytes of one row of {@code schema} in Arrow buffers (values, offsets, validity). */
    static double width(Schema schema) {
        return schema.getFields().stream().mapToDouble(CostRules::width).sum();
    }

    private static double width(Field field) {
        ArrowType type = field.getType();
        double validity = 0.125;
        return validity + switch (type.getTypeID()) {
            case Bool -> 0.125;
            case Int -> ((ArrowType.Int) type).getBitWidth() / 8.0;
            case FloatingPoint -> ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? 4 : 8;
            case Decimal -> ((ArrowType.Decimal) type).getBitWidth() / 8.0;
            case Date -> ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8;
            case Timestamp, Time, Duration, Interval -> 8;
            case Utf8, Binary -> 4 + VARIABLE_WIDTH;
            case LargeUtf8, LargeBinary -> 8 + VARIABLE_WIDTH;
            case Null -> 0;
            default -> VARIABLE_WIDTH;
        };
    }

    private static String bytes(Estimate estimate) {
        return ByteSize.formatBytes(estimate.roundedBytes());
    }
}
