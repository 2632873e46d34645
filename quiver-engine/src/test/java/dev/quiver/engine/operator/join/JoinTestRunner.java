package dev.quiver.engine.operator.join;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Runs every output partition of a plan, one after another or all at once, and gathers the rows. */
final class JoinTestRunner {
    private JoinTestRunner() {}

    static List<List<Object>> rows(ExecutionPlan plan, TaskContext context, boolean concurrent) {
        int partitions = plan.outputPartitioning().partitionCount();
        List<List<Object>> rows = new ArrayList<>();
        if (!concurrent) {
            for (int p = 0; p < partitions; p++) {
                rows.addAll(partition(plan, p, context));
            }
            return rows;
        }
        List<CompletableFuture<List<List<Object>>>> futures = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            futures.add(CompletableFuture.supplyAsync(() -> partition(plan, partition, context), context.executor().asExecutorService()));
        }
        for (CompletableFuture<List<List<Object>>> future : futures) {
            rows.addAll(future.join());
        }
        return rows;
    }

    static List<List<Object>> partition(ExecutionPlan plan, int partition, TaskContext context) {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchStream stream = plan.execute(partition, context)) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    if (owned.getRowCount() > context.batchSize()) {
                        throw new AssertionError("batch of " + owned.getRowCount() + " rows exceeds batch size " + context.batchSize());
                    }
                    if (!owned.getSchema().getFields().stream().map(f -> f.getName()).toList()
                            .equals(stream.schema().getFields().stream().map(f -> f.getName()).toList())) {
                        throw new AssertionError("batch schema " + owned.getSchema() + " differs from stream schema " + stream.schema());
                    }
                    rows.addAll(Batches.toRows(owned));
                }
            }
        }
        return rows;
    }
}
