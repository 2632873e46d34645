package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.PartitionRunner;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Builders for aggregation tests. */
final class AggregateTesting {
    private AggregateTesting() {}

    static ColumnExpr col(Schema schema, String name) {
        for (int i = 0; i < schema.getFields().size(); i++) {
            Field field = schema.getFields().get(i);
            if (field.getName().equals(name)) {
                return new ColumnExpr(i, name, field.getType(), field.isNullable());
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    static AggregateExpr agg(AggregateFunction function, PhysicalExpr arg, String name, ArrowType type) {
        return new AggregateExpr(function, arg == null ? List.of() : List.of(arg), false, name, type);
    }

    static AggregateExpr distinct(AggregateFunction function, PhysicalExpr arg, String name, ArrowType type) {
        return new AggregateExpr(function, List.of(arg), true, name, type);
    }

    static AggregateExpr countStar() {
        return agg(AggregateFunction.COUNT, null, "cnt", QuiverTypes.INT64);
    }

    /** Every row of every output partition of {@code plan}, partitions run concurrently. */
    static List<List<Object>> allRows(ExecutionPlan plan, TaskContext context) {
        List<List<Object>> rows = new ArrayList<>();
        PartitionRunner.rowsPerPartition(plan, context).forEach(rows::addAll);
        return rows;
    }

    /** A SINGLE aggregation over {@code input}. */
    static HashAggregateExec single(ExecutionPlan input, List<String> keys, List<AggregateExpr> aggregates) {
        return new HashAggregateExec(AggregateMode.SINGLE, keys.stream().map(k -> (PhysicalExpr) col(input.schema(), k)).toList(),
                keys, aggregates, input);
    }

    static HashAggregateExec partial(ExecutionPlan input, List<String> keys, List<AggregateExpr> aggregates) {
        return new HashAggregateExec(AggregateMode.PARTIAL, keys.stream().map(k -> (PhysicalExpr) col(input.schema(), k)).toList(),
                keys, aggregates, input);
    }

    /** A FINAL aggregation over the state rows of {@code partial}, which are fed to it as one partition. */
    static HashAggregateExec finalOver(HashAggregateExec partial, List<List<Object>> stateRows) {
        MemoryScanExec states = new MemoryScanExec(partial.schema(), List.of(stateRows));
        List<PhysicalExpr> keys = new ArrayList<>();
        for (int k = 0; k < partial.groupExprs().size(); k++) {
            Field field = partial.schema().getFields().get(k);
            keys.add(new ColumnExpr(k, field.getName(), field.getType(), field.isNullable()));
        }
        return new HashAggregateExec(AggregateMode.FINAL, keys, partial.groupNames(), partial.aggregates(), states);
    }
}
