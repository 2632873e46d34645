package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Small plans built the way the physical planner builds them, so that tests read like the SQL they stand for. */
public final class PlanBuilders {
    public static final Schema KV = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false), QuiverTypes.field("v", QuiverTypes.INT64, false)));

    private PlanBuilders() {}

    /** A table of {@code rows} rows (k = i % 7, v = i) in {@code partitions} partitions. */
    public static MemoryScanExec table(int rows, int partitions) {
        List<List<Object>> data = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            data.add(List.of(i % 7, i));
        }
        return MemoryScanExec.split(KV, data, partitions);
    }

    public static ColumnExpr col(ExecutionPlan plan, String name) {
        List<Field> fields = plan.schema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return new ColumnExpr(i, name, fields.get(i).getType(), fields.get(i).isNullable());
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** {@code SELECT DISTINCT key FROM input} as partial aggregate, hash repartition into P, final aggregate. */
    public static ExecutionPlan distinct(ExecutionPlan input, String key, int partitions) {
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, List.of(col(input, key)), List.of(key), List.of(), input);
        List<PhysicalExpr> keys = List.of(col(partial, key));
        return new HashAggregateExec(AggregateMode.FINAL, keys, List.of(key), List.of(),
                new RepartitionExec(partial, new Partitioning.Hash(keys, partitions)));
    }

    public static ExecutionPlan coalesce(ExecutionPlan input) {
        return new CoalescePartitionsExec(input);
    }

    /** {@code build JOIN probe ON build.k = probe.k}, the build side collected. */
    public static HashJoinExec collectLeft(ExecutionPlan build, ExecutionPlan probe, JoinType type) {
        return new HashJoinExec(build, probe, List.of(col(build, "k")), List.of(col(probe, "k")), type, Optional.empty(), PartitionMode.COLLECT_LEFT);
    }

    /** {@code build JOIN probe ON build.k = probe.k}, both sides hash-repartitioned into P. */
    public static HashJoinExec partitioned(ExecutionPlan build, ExecutionPlan probe, JoinType type, int partitions) {
        List<PhysicalExpr> buildKeys = List.of(col(build, "k"));
        List<PhysicalExpr> probeKeys = List.of(col(probe, "k"));
        return new HashJoinExec(new RepartitionExec(build, new Partitioning.Hash(buildKeys, partitions)),
                new RepartitionExec(probe, new Partitioning.Hash(probeKeys, partitions)), buildKeys, probeKeys, type, Optional.empty(),
                PartitionMode.PARTITIONED);
    }

    public static NestedLoopJoinExec crossJoin(ExecutionPlan left, ExecutionPlan right, JoinType type) {
        return new NestedLoopJoinExec(left, right, type, Optional.empty());
    }

    /** Settings for {@code workers} workers and P partitions that split every scan as far as the limit allows. */
    public static DistributedPlannerSettings fanOut(int workers, int partitions) {
        return DistributedPlannerSettings.defaults(workers, partitions).withBytesPerPartitionForScans(1);
    }
}
