package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.recursive.RecursiveUnionExec;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Spool;

/**
 * {@code WITH RECURSIVE}: Calcite's {@code RepeatUnion(Spool(seed), Spool(step))}, whose step scans
 * the CTE's transient table, as a {@link RecursiveUnionExec} over the seed and the step, each in one
 * partition and both with the CTE's column types. The spools only say that each part's rows fill
 * the table: the engine operator does that itself. The scans of the transient table become work
 * table scans ({@link ScanPlanner}).
 */
final class RecursivePlanner {
    /**
     * Runs of the recursive part after which a recursive query that still produces rows fails
     * (PostgreSQL and DuckDB have no such limit; a runaway recursion there runs out of memory).
     */
    static final long MAX_ITERATIONS = 100_000;

    private RecursivePlanner() {}

    static ExecutionPlan plan(RepeatUnion repeat, Function<RelNode, ExecutionPlan> visit) {
        RelOptTable table = repeat.getTransientTable();
        if (table == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "A recursive union without its table: " + repeat);
        }
        List<String> name = table.getQualifiedName();
        ExecutionPlan seed = onePartition(PhysicalPlanner.conform(visit.apply(withoutSpool(repeat.getSeedRel())), repeat.getRowType()));
        ExecutionPlan step = onePartition(PhysicalPlanner.conform(visit.apply(withoutSpool(repeat.getIterativeRel())), repeat.getRowType()));
        long limit = repeat.iterationLimit >= 0 ? Math.min(repeat.iterationLimit, MAX_ITERATIONS) : MAX_ITERATIONS;
        return new RecursiveUnionExec(seed, step, name.get(name.size() - 1), !repeat.all, limit);
    }

    private static RelNode withoutSpool(RelNode rel) {
        return rel instanceof Spool spool ? spool.getInput() : rel;
    }

    private static ExecutionPlan onePartition(ExecutionPlan plan) {
        return plan.outputPartitioning().partitionCount() > 1 ? new CoalescePartitionsExec(plan) : plan;
    }
}
