package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The byte-based cost model of AQE (DESIGN §5 step 1; docs/aqe.md lists every formula). It walks a
 * stage plan bottom-up: each leaf's output is its statistics (a source's
 * {@code partitionStatistics}, or the runtime statistics a coordinator attached to a
 * {@link dev.quiver.distributed.operator.StageInputExec} with {@code withStatistics}); each
 * operator's {@link CostRules rule} turns its inputs' estimated rows and bytes into its output
 * estimate and its own work in bytes. The stage's cost is the sum of the work. Stateless and
 * thread-safe.
 */
public final class CostModel {
    private final CostRules rules;

    public CostModel() {
        this(CostRules.builtin());
    }

    public CostModel(CostRules rules) {
        this.rules = requireNonNull(rules, "rules is null");
    }

    /** The cost of the stage whose (whole, unsplit) plan is {@code stagePlan}. */
    public StageCost cost(ExecutionPlan stagePlan) {
        requireNonNull(stagePlan, "stagePlan is null");
        List<OperatorCost> operators = new ArrayList<>();
        List<String> unknownLeaves = new ArrayList<>();
        CostRules.Estimate root = walk(stagePlan, operators, unknownLeaves);
        long cost = operators.stream().mapToLong(OperatorCost::workBytes).reduce(0, CostModel::saturatedAdd);
        return new StageCost(cost, root.roundedRows(), root.roundedBytes(), operators, unknownLeaves);
    }

    private CostRules.Estimate walk(ExecutionPlan node, List<OperatorCost> out, List<String> unknownLeaves) {
        int index = out.size();
        // reserve this node's pre-order index before its children take theirs
        out.add(null);
        List<CostRules.Estimate> inputs = new ArrayList<>();
        for (ExecutionPlan child : node.children()) {
            inputs.add(walk(child, out, unknownLeaves));
        }
        CostRules.Result result;
        if (node.children().isEmpty()) {
            Statistics statistics = node.partitionStatistics(OptionalInt.empty());
            if (!statistics.rowCount().isKnown() && !statistics.totalBytes().isKnown()) {
                unknownLeaves.add(node.displayLine());
            }
            result = CostRules.leaf(node, statistics);
        } else {
            result = rules.ruleFor(node).apply(node, inputs);
        }
        out.set(index, new OperatorCost(index, node.name(), result.output().roundedRows(), result.output().roundedBytes(),
                Math.round(Math.min(Long.MAX_VALUE, result.workBytes())), result.formula()));
        return result.output();
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
