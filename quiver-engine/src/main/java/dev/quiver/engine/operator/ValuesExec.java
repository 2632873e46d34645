package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;
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
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: ValuesExec");
    }
}
