package dev.quiver.engine.source.files;

import dev.quiver.engine.stats.DistinctEstimator;
import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Distinct-count estimates for a table whose files carry no column statistics (Arrow IPC, CSV),
 * from sample parts: runs of consecutive rows read at a few places spread over the table.
 *
 * <ul>
 *   <li>When the parts' value ranges are strictly separate (data sorted on the column, such as
 *       keys), the parts' share of distinct values is taken for the whole table (lineitem's
 *       l_orderkey: one order per four lines).
 *   <li>Otherwise the parts draw from one domain, whose size the union of the parts implies
 *       ({@link DistinctEstimator#domainSize}); a union whose values are all different says the
 *       column is about unique.
 *   <li>One part cannot tell sorted from shared values: only a repeating sample gives a count
 *       ({@link DistinctEstimator#fromSample}).
 * </ul>
 * Parts start at places spread evenly over the table and are short, so sorted data gives strictly
 * separate ranges; equal bounds (a constant column) count as shared. Values must be comparable
 * within a column (numbers as numbers, not as text) for the ranges to say anything; others are
 * taken as shared.
 */
public final class SampledColumns {
    /** Parts a table is sampled at, at most. */
    public static final int PARTS = 8;
    /** Rows read per part, at most. */
    public static final int ROWS_PER_PART = 2_000;

    private final List<List<Part>> columns;

    /** One column's non-null values in one part. */
    private record Part(Set<Object> values, long rows, Object min, Object max) {}

    public SampledColumns(int columnCount) {
        columns = new ArrayList<>(columnCount);
        for (int c = 0; c < columnCount; c++) {
            columns.add(new ArrayList<>());
        }
    }

    /** Adds one part of {@code column}: its non-null values, in any order. */
    public void add(int column, Collection<?> nonNullValues) {
        Set<Object> values = new HashSet<>(nonNullValues);
        Object min = null;
        Object max = null;
        for (Object value : values) {
            min = min == null || compare(value, min) < 0 ? value : min;
            max = max == null || compare(value, max) > 0 ? value : max;
        }
        columns.get(column).add(new Part(values, nonNullValues.size(), min, max));
    }

    /** The estimate for {@code column}, whose table has (about) {@code tableNonNull} non-null values; never exact. */
    public Estimate distinct(int column, long tableNonNull) {
        List<Part> parts = columns.get(column).stream().filter(part -> part.rows() > 0).toList();
        if (tableNonNull == 0) {
            return Estimate.exact(0);
        }
        if (parts.isEmpty()) {
            return Estimate.absent();
        }
        long sampled = parts.stream().mapToLong(Part::rows).sum();
        if (parts.size() == 1) {
            return DistinctEstimator.fromSample(parts.get(0).values().size(), sampled, tableNonNull);
        }
        if (sampled >= tableNonNull) {
            return DistinctEstimator.fromSample(union(parts), sampled, tableNonNull);
        }
        if (separate(parts)) {
            double share = parts.stream().mapToLong(part -> part.values().size()).sum() / (double) sampled;
            return Estimate.inexact(Math.max(1, Math.min(tableNonNull, Math.round(share * tableNonNull))));
        }
        long distinct = union(parts);
        double domain = DistinctEstimator.domainSize(distinct, sampled);
        long estimate = domain >= tableNonNull ? tableNonNull : Math.max(distinct, Math.round(domain));
        return Estimate.inexact(Math.max(1, Math.min(tableNonNull, estimate)));
    }

    private static long union(List<Part> parts) {
        Set<Object> all = new HashSet<>();
        parts.forEach(part -> all.addAll(part.values()));
        return all.size();
    }

    private static boolean separate(List<Part> parts) {
        List<Part> sorted = new ArrayList<>(parts);
        sorted.sort((a, b) -> compare(a.min(), b.min()));
        for (int i = 1; i < sorted.size(); i++) {
            Part previous = sorted.get(i - 1);
            Part part = sorted.get(i);
            if (!comparable(part.min(), previous.max()) || compare(part.min(), previous.max()) <= 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean comparable(Object a, Object b) {
        return a instanceof Comparable && a.getClass() == b.getClass();
    }

    /** Orders values of one column; 0 (no order) for values that are not mutually comparable. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        return comparable(a, b) ? ((Comparable) a).compareTo(b) : 0;
    }
}
