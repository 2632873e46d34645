package dev.quiver.engine.operator;

import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** Constant rows (Java values as in {@link dev.quiver.engine.types.QuiverTypes}), in one partition. */
public final class ValuesExec extends AbstractExecutionPlan {
    private final Schema schema;
    private final List<List<Object>> rows;

    public ValuesExec(Schema schema, List<List<Object>> rows) {
        this.schema = requireNonNull(schema, "schema is null");
        List<List<Object>> copy = new ArrayList<>();
        for (List<Object> row : requireNonNull(rows, "rows is null")) {
            copy.add(java.util.Collections.unmodifiableList(new ArrayList<>(row)));
        }
        this.rows = java.util.Collections.unmodifiableList(copy);
    }

    public List<List<Object>> rows() {
        return rows;
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
        return Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public String displayLine() {
        return "ValuesExec: rows=" + rows.size();
    }

    @Override
    public String name() {
        return "ValuesExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        Statistics unknown = Statistics.unknown(schema);
        return new Statistics(Estimate.exact(rows.size()), Estimate.absent(), unknown.columns());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        BatchStream stream = new BatchStream() {
            private int offset;

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                if (offset >= rows.size()) {
                    return null;
                }
                int end = Math.min(rows.size(), offset + context.batchSize());
                VectorSchemaRoot batch = Batches.fromRows(schema, rows.subList(offset, end), context.allocator());
                offset = end;
                return batch;
            }

            @Override
            public void close() {
                offset = rows.size();
            }
        };
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }
}
