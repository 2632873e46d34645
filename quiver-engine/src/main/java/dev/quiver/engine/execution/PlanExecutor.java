package dev.quiver.engine.execution;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Runs a whole plan to its end in one process. */
public final class PlanExecutor {
    private PlanExecutor() {}

    /** One stream over every output partition of {@code plan} (coalesced when there are several). */
    public static BatchStream executeAll(ExecutionPlan plan, TaskContext context) {
        ExecutionPlan single = plan.outputPartitioning().partitionCount() == 1 ? plan : new CoalescePartitionsExec(plan);
        return single.execute(0, context);
    }

    /** Every batch of the plan's output; the caller closes them. */
    public static List<VectorSchemaRoot> collect(ExecutionPlan plan, TaskContext context) {
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try (BatchStream stream = executeAll(plan, context)) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                batches.add(batch);
            }
        } catch (RuntimeException e) {
            batches.forEach(VectorSchemaRoot::close);
            throw e;
        }
        return batches;
    }

    /** Every row of the plan's output as Java values, in output order. */
    public static List<List<Object>> collectRows(ExecutionPlan plan, TaskContext context) {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchStream stream = executeAll(plan, context)) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    rows.addAll(Batches.toRows(owned));
                }
            }
        }
        return rows;
    }
}
