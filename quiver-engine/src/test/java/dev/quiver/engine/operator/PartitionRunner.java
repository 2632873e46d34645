package dev.quiver.engine.operator;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Runs every output partition of a plan on its own thread, as a parent operator would. */
public final class PartitionRunner {
    private PartitionRunner() {}

    /** The rows of each output partition. Rethrows the first partition's failure. */
    public static List<List<List<Object>>> rowsPerPartition(ExecutionPlan plan, TaskContext context) {
        return collect(plan, context, false);
    }

    /** The row counts of each batch of each output partition. */
    public static List<List<Integer>> batchSizes(ExecutionPlan plan, TaskContext context) {
        List<List<Integer>> sizes = new ArrayList<>();
        for (List<List<Object>> partition : collect(plan, context, true)) {
            sizes.add(partition.stream().map(row -> (Integer) row.get(0)).toList());
        }
        return sizes;
    }

    private static List<List<List<Object>>> collect(ExecutionPlan plan, TaskContext context, boolean sizesOnly) {
        int partitions = plan.outputPartitioning().partitionCount();
        List<Future<List<List<Object>>>> futures = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            futures.add(context.executor().asExecutorService().submit(() -> {
                List<List<Object>> rows = new ArrayList<>();
                try (BatchStream stream = plan.execute(partition, context)) {
                    VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        try (VectorSchemaRoot owned = batch) {
                            if (sizesOnly) {
                                rows.add(List.of(owned.getRowCount()));
                            } else {
                                rows.addAll(Batches.toRows(owned));
                            }
                        }
                    }
                }
                return rows;
            }));
        }
        List<List<List<Object>>> result = new ArrayList<>();
        RuntimeException failure = null;
        for (Future<List<List<Object>>> future : futures) {
            try {
                result.add(future.get());
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException runtime ? runtime : new RuntimeException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }
}
