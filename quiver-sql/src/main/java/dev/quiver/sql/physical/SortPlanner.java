package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.limit.LocalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * ORDER BY / LIMIT / OFFSET: each partition sorted (top-k when there is a limit), merged in order,
 * then the offset skipped; without sort keys, limits alone.
 */
final class SortPlanner {
    private SortPlanner() {}

    static ExecutionPlan plan(Sort sort, ExecutionPlan input) {
        long offset = sort.offset == null ? 0 : constant(sort.offset, "OFFSET");
        OptionalLong fetch = sort.fetch == null ? OptionalLong.empty() : OptionalLong.of(constant(sort.fetch, "LIMIT"));
        // Each partition must keep the rows that may end up within offset + fetch.
        OptionalLong keep = fetch.isPresent() ? OptionalLong.of(saturatedAdd(offset, fetch.getAsLong())) : OptionalLong.empty();
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
            keys.add(sortKey(collation, input.schema()));
        }
        boolean single = input.outputPartitioning().partitionCount() == 1;
        ExecutionPlan plan;
        if (keys.isEmpty()) {
            plan = input;
            if (!single) {
                plan = keep.isPresent() ? new LocalLimitExec(plan, keep.getAsLong()) : plan;
                plan = new CoalescePartitionsExec(plan);
            }
        } else if (single) {
            plan = new SortExec(input, keys, keep, false);
        } else {
            plan = new SortPreservingMergeExec(new SortExec(input, keys, keep, true), keys, keep);
        }
        if (offset > 0 || (fetch.isPresent() && keys.isEmpty())) {
            plan = new GlobalLimitExec(plan, offset, fetch);
        }
        return plan;
    }

    /** The sort key of one ORDER BY column of {@code schema}. */
    static SortKey sortKey(RelFieldCollation collation, Schema schema) {
        boolean ascending = !collation.getDirection().isDescending();
        boolean nullsFirst = switch (collation.nullDirection) {
            case FIRST -> true;
            case LAST -> false;
            // Calcite's default (NullCollation.HIGH): NULL sorts as the largest value.
            case UNSPECIFIED -> !ascending;
        };
        return new SortKey(RexTranslator.column(schema, collation.getFieldIndex()), ascending, nullsFirst);
    }

    private static long constant(RexNode node, String clause) {
        if (!(node instanceof RexLiteral literal)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, clause + " must be a constant: " + node);
        }
        long value = literal.getValueAs(Long.class);
        if (value < 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, clause + " must not be negative: " + value);
        }
        return value;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
