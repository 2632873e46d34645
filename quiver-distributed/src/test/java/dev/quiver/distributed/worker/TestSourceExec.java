package dev.quiver.distributed.worker;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** What the workers' test sources share: one BIGINT column {@code n}, no children, one partition. */
abstract class TestSourceExec extends AbstractExecutionPlan {
    static final Schema SCHEMA = new Schema(List.of(Field.nullable("n", new ArrowType.Int(64, true))));

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(1);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public String displayLine() {
        return name();
    }
}
