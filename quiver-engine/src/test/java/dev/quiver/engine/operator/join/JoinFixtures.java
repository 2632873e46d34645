package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinOracle.row;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/** Inputs of the join tests: two three-column tables (BIGINT key, VARCHAR key, INTEGER value) and ways to partition them. */
final class JoinFixtures {
    static final Schema LEFT = new Schema(List.of(
            QuiverTypes.field("lk1", QuiverTypes.INT64, true),
            QuiverTypes.field("lk2", QuiverTypes.UTF8, true),
            QuiverTypes.field("lv", QuiverTypes.INT32, true)));
    static final Schema RIGHT = new Schema(List.of(
            QuiverTypes.field("rk1", QuiverTypes.INT64, true),
            QuiverTypes.field("rk2", QuiverTypes.UTF8, true),
            QuiverTypes.field("rv", QuiverTypes.INT32, true)));
    /** {@code lv < rv} over the filter schema (left columns, then right columns). */
    static final PhysicalExpr LV_LESS_THAN_RV = new IntLessThan(2, 5);

    private JoinFixtures() {}

    static List<PhysicalExpr> leftKeys(int count) {
        List<PhysicalExpr> keys = new ArrayList<>();
        keys.add(new ColumnExpr(0, "lk1", QuiverTypes.INT64, true));
        if (count > 1) {
            keys.add(new ColumnExpr(1, "lk2", QuiverTypes.UTF8, true));
        }
        return keys;
    }

    static List<PhysicalExpr> rightKeys(int count) {
        List<PhysicalExpr> keys = new ArrayList<>();
        keys.add(new ColumnExpr(0, "rk1", QuiverTypes.INT64, true));
        if (count > 1) {
            keys.add(new ColumnExpr(1, "rk2", QuiverTypes.UTF8, true));
        }
        return keys;
    }

    /** Rows split into {@code n} partitions by the first column (as a hash repartition on the key would); NULL keys spread by position. */
    static MemoryScanExec partitionedByKey(Schema schema, List<List<Object>> rows, int n) {
        List<List<List<Object>>> parts = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            parts.add(new ArrayList<>());
        }
        for (int i = 0; i < rows.size(); i++) {
            Object key = rows.get(i).get(0);
            int partition = key == null ? i % n : (int) Math.floorMod(((Number) key).longValue() * 31 + 7, (long) n);
            parts.get(partition).add(rows.get(i));
        }
        return new MemoryScanExec(schema, parts);
    }

    /** The test cases of the operator tests: each stresses one aspect on small inputs. */
    enum Scenario {
        NULL_KEYS(1, false,
                List.of(row(1L, "a", 1), row(null, "a", 2), row(2L, "b", 3), row(null, null, 4), row(3L, "c", 5)),
                List.of(row(1L, "a", 10), row(null, "a", 11), row(2L, "b", 12), row(4L, "d", 13), row(null, null, 14))),
        EMPTY_BUILD(1, false,
                List.of(),
                List.of(row(1L, "a", 10), row(null, "a", 11), row(2L, "b", 12))),
        EMPTY_PROBE(1, false,
                List.of(row(1L, "a", 1), row(null, "a", 2), row(2L, "b", 3)),
                List.of()),
        DUPLICATE_KEYS(1, false,
                List.of(row(1L, "a", 1), row(1L, "b", 2), row(1L, "c", 3), row(2L, "a", 4), row(2L, "b", 5), row(3L, "c", 6)),
                List.of(row(1L, "x", 10), row(1L, "y", 11), row(2L, "x", 12), row(2L, "y", 13), row(2L, "z", 14), row(5L, "x", 15))),
        MULTI_COLUMN_KEYS(2, false,
                List.of(row(1L, "a", 1), row(1L, "b", 2), row(2L, "a", 3), row(2L, null, 4), row(null, "a", 5), row(1L, "a", 6)),
                List.of(row(1L, "a", 10), row(1L, "a", 11), row(1L, "c", 12), row(2L, "a", 13), row(2L, null, 14), row(3L, "a", 15))),
        RESIDUAL_FILTER(1, true,
                List.of(row(1L, "a", 5), row(1L, "b", 15), row(2L, "c", 30), row(3L, "d", null), row(4L, "e", 1)),
                List.of(row(1L, "x", 10), row(1L, "y", 20), row(2L, "z", 25), row(3L, "w", 100), row(4L, "v", null), row(5L, "u", 0)));

        final int keyCount;
        final boolean filtered;
        final List<List<Object>> left;
        final List<List<Object>> right;

        Scenario(int keyCount, boolean filtered, List<List<Object>> left, List<List<Object>> right) {
            this.keyCount = keyCount;
            this.filtered = filtered;
            this.left = left;
            this.right = right;
        }

        Optional<PhysicalExpr> filter() {
            return filtered ? Optional.of(LV_LESS_THAN_RV) : Optional.empty();
        }

        List<List<Object>> expected(JoinType type) {
            int[] keys = keyCount == 1 ? new int[] {0} : new int[] {0, 1};
            return JoinOracle.join(type, left, right, 3, 3, keys, keys, filtered
                    ? (l, r) -> l.get(2) != null && r.get(2) != null && (Integer) l.get(2) < (Integer) r.get(2)
                    : (l, r) -> true);
        }
    }

    static ExecutionPlan scan(Schema schema, List<List<Object>> rows, boolean byKey, int partitions) {
        return byKey ? partitionedByKey(schema, rows, partitions) : MemoryScanExec.split(schema, rows, partitions);
    }
}
