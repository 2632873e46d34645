package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.operator.sort.IntSort;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * MODE: a group's most frequent value; of equally frequent values the smallest (as PostgreSQL's
 * {@code mode() WITHIN GROUP (ORDER BY x)} chooses, and independent of the order rows arrive in,
 * which differs between runs of a distributed query).
 */
final class ModeAccumulator extends HolisticAccumulator {
    ModeAccumulator(ArrowType valueType) {
        super(List.of(valueType));
    }

    @Override
    protected void evaluateGroup(int start, int end, FieldVector out, int index) {
        GatheredColumn values = rows.column(0);
        int[] order = rows.order();
        IntSort.sort(order, start, end, values::compareValues);
        int best = order[start];
        int bestCount = 0;
        int runStart = start;
        for (int i = start + 1; i <= end; i++) {
            if (i == end || values.compareValues(order[i], order[runStart]) != 0) {
                if (i - runStart > bestCount) {
                    bestCount = i - runStart;
                    best = order[runStart];
                }
                runStart = i;
            }
        }
        values.write(out, index, best);
    }
}
