package dev.quiver.engine.operator.recursive;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The recursive table of a {@code WITH RECURSIVE} query as its recursive part reads it: the rows
 * the last iteration produced. A leaf of one partition, inside a {@link RecursiveUnionExec}'s
 * recursive part, which fills its table before each iteration and gives it to this node in the
 * shared state of the iteration's {@link TaskContext}.
 */
public final class WorkTableScanExec extends AbstractExecutionPlan {
    private final String table;
    private final Schema schema;

    public WorkTableScanExec(String table, Schema schema) {
        this.table = requireNonNull(table, "table is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    public String table() {
        return table;
    }

    @Override
    public String name() {
        return "WorkTableScanExec";
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
        return new Partitioning.Single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public String displayLine() {
        return "WorkTableScanExec: " + table;
    }

    /** The table this node reads in {@code context}. */
    WorkTable workTable(TaskContext context) {
        return context.sharedState(this, WorkTable.class, WorkTable::new);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        Deque<VectorSchemaRoot> batches = new ArrayDeque<>(workTable(context).read());
        BatchStream stream = new BatchStream() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                return batches.poll();
            }

            @Override
            public void close() {
                batches.forEach(VectorSchemaRoot::close);
                batches.clear();
            }
        };
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }
}
