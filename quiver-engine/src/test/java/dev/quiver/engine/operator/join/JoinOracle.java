package dev.quiver.engine.operator.join;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;

/** The textbook definition of each join type over rows of Java values: the oracle of the join tests. */
final class JoinOracle {
    private JoinOracle() {}

    /**
     * The rows {@code type} yields: a pair matches when every key is non-NULL and equal on both
     * sides and {@code filter} holds on (left row, right row).
     */
    static List<List<Object>> join(JoinType type, List<List<Object>> left, List<List<Object>> right, int leftWidth, int rightWidth,
            int[] leftKeys, int[] rightKeys, BiPredicate<List<Object>, List<Object>> filter) {
        List<List<Object>> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        for (List<Object> l : left) {
            boolean matched = false;
            for (int j = 0; j < right.size(); j++) {
                List<Object> r = right.get(j);
                if (keysMatch(l, r, leftKeys, rightKeys) && filter.test(l, r)) {
                    matched = true;
                    rightMatched[j] = true;
                    if (type.emitsPairs()) {
                        out.add(concat(l, r));
                    }
                }
            }
            if ((type == JoinType.LEFT || type == JoinType.FULL) && !matched) {
                out.add(concat(l, nulls(rightWidth)));
            }
            if ((type == JoinType.LEFT_SEMI && matched) || (type == JoinType.LEFT_ANTI && !matched)) {
                out.add(l);
            }
        }
        for (int j = 0; j < right.size(); j++) {
            List<Object> r = right.get(j);
            if ((type == JoinType.RIGHT || type == JoinType.FULL) && !rightMatched[j]) {
                out.add(concat(nulls(leftWidth), r));
            }
            if ((type == JoinType.RIGHT_SEMI && rightMatched[j]) || (type == JoinType.RIGHT_ANTI && !rightMatched[j])) {
                out.add(r);
            }
        }
        return out;
    }

    private static boolean keysMatch(List<Object> l, List<Object> r, int[] leftKeys, int[] rightKeys) {
        for (int k = 0; k < leftKeys.length; k++) {
            Object a = l.get(leftKeys[k]);
            Object b = r.get(rightKeys[k]);
            if (a == null || b == null || !Objects.equals(a, b)) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> concat(List<Object> a, List<Object> b) {
        List<Object> row = new ArrayList<>(a);
        row.addAll(b);
        return row;
    }

    private static List<Object> nulls(int width) {
        return new ArrayList<>(Collections.nCopies(width, null));
    }

    /** A mutable row (tests need NULLs, which {@code List.of} refuses). */
    static List<Object> row(Object... values) {
        return new ArrayList<>(Arrays.asList(values));
    }
}
