package dev.quiver.engine.operator.recursive;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@code WITH RECURSIVE t AS (seed UNION [ALL] step)}: emits the seed's rows, then runs the
 * recursive part again and again, each time over the rows the previous run produced (its
 * {@link WorkTableScanExec} leaves named {@code table}), until a run produces none. With UNION
 * (distinct) a row already produced is dropped, so a cycle ends. Rows stream out as they are
 * produced; what is held is the last iteration's rows (and, for UNION, every distinct row so far),
 * in a reservation named after this operator. More than {@code maxIterations} runs that still
 * produce rows fail with {@link ErrorCode#RECURSION_LIMIT_EXCEEDED}.
 *
 * <p>One partition, and so one task when distributed: the recursive part runs many times in the
 * task that holds the rows it reads (the distributed planner keeps the whole subtree in one stage).
 * Both inputs must have one partition.
 */
public final class RecursiveUnionExec extends AbstractExecutionPlan {
    private final ExecutionPlan seed;
    private final ExecutionPlan step;
    private final String table;
    private final boolean distinct;
    private final long maxIterations;

    public RecursiveUnionExec(ExecutionPlan seed, ExecutionPlan step, String table, boolean distinct, long maxIterations) {
        this.seed = requireNonNull(seed, "seed is null");
        this.step = requireNonNull(step, "step is null");
        this.table = requireNonNull(table, "table is null");
        this.distinct = distinct;
        this.maxIterations = maxIterations;
        if (maxIterations < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "RecursiveUnionExec needs a positive iteration limit: " + maxIterations);
        }
        if (seed.outputPartitioning().partitionCount() != 1 || step.outputPartitioning().partitionCount() != 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "RecursiveUnionExec needs single-partition inputs");
        }
        if (!types(seed.schema()).equals(types(step.schema()))) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "the recursive part of " + table + " has columns " + step.schema()
                    + " but its seed has " + seed.schema());
        }
        if (workTables().isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "the recursive part of " + table + " does not read " + table);
        }
    }

    public ExecutionPlan seed() {
        return seed;
    }

    public ExecutionPlan step() {
        return step;
    }

    public String table() {
        return table;
    }

    public boolean distinct() {
        return distinct;
    }

    public long maxIterations() {
        return maxIterations;
    }

    @Override
    public String name() {
        return "RecursiveUnionExec";
    }

    @Override
    public Schema schema() {
        return seed.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(seed, step);
    }

    @Override
    public Partitioning outputPartitioning() {
        return Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RecursiveUnionExec(children.get(0), children.get(1), table, distinct, maxIterations);
    }

    @Override
    public String displayLine() {
        return "RecursiveUnionExec: table=" + table + (distinct ? ", distinct" : ", all") + ", max_iterations=" + maxIterations;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        RecursionStream stream = new RecursionStream(this, workTables(), context, metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    /** The recursive part's scans of this query's table (not those of a recursive query nested in it). */
    List<WorkTableScanExec> workTables() {
        List<WorkTableScanExec> scans = new ArrayList<>();
        collect(step, scans);
        return scans;
    }

    private void collect(ExecutionPlan plan, List<WorkTableScanExec> scans) {
        if (plan instanceof WorkTableScanExec scan && scan.table().equals(table)) {
            scans.add(scan);
        }
        if (plan instanceof RecursiveUnionExec nested && nested.table.equals(table)) {
            return;
        }
        plan.children().forEach(child -> collect(child, scans));
    }

    private static List<Object> types(Schema schema) {
        return schema.getFields().stream().map(Field::getType).map(Object.class::cast).toList();
    }
}
