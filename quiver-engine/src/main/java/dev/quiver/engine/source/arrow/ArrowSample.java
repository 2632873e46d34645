package dev.quiver.engine.source.arrow;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.stats.DistinctEstimator;
import dev.quiver.engine.stats.Estimate;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.util.Text;

/**
 * Distinct-count estimates for an Arrow IPC table, whose files carry no column statistics: up to
 * {@value #PARTS} record batches spread evenly over the table are read at opening, and the first
 * {@value #ROWS_PER_PART} rows of each are a sample part.
 *
 * <ul>
 *   <li>When the parts' value ranges do not overlap (data sorted on the column, such as keys), the
 *       parts' share of distinct values is taken for the whole table (lineitem's l_orderkey: one
 *       order per four lines).
 *   <li>Otherwise the parts draw from one domain, whose size the union of the parts implies
 *       ({@link DistinctEstimator#domainSize}); a union whose values are all different says the
 *       column is about unique.
 *   <li>A table of one batch has one part, which cannot tell sorted from shared values: only a
 *       repeating sample gives a count ({@link DistinctEstimator#fromSample}).
 * </ul>
 */
final class ArrowSample {
    static final int PARTS = 8;
    static final int ROWS_PER_PART = 2_000;

    private final List<List<Part>> columns;

    /** One column's values in one sampled batch. */
    private record Part(long distinct, long rows, Object min, Object max, Set<Object> values) {}

    private ArrowSample(List<List<Part>> columns) {
        this.columns = columns;
    }

    /** Reads the sample of {@code splits} (the table's record batches, in file order). */
    static ArrowSample read(List<ArrowBlockSplit> splits, int columnCount, BufferAllocator allocator) {
        List<List<Part>> columns = new ArrayList<>(columnCount);
        for (int c = 0; c < columnCount; c++) {
            columns.add(new ArrayList<>());
        }
        int parts = Math.min(PARTS, splits.size());
        for (int p = 0; p < parts; p++) {
            ArrowBlockSplit split = splits.get((int) ((long) p * splits.size() / parts));
            if (split.rowCount() > 0) {
                readPart(split, columns, allocator);
            }
        }
        return new ArrowSample(columns);
    }

    private static void readPart(ArrowBlockSplit split, List<List<Part>> columns, BufferAllocator allocator) {
        try (FileChannel channel = FileChannel.open(split.file(), StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            if (!reader.loadRecordBatch(reader.getRecordBlocks().get(split.index()))) {
                return;
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            int rows = Math.min(root.getRowCount(), ROWS_PER_PART);
            for (int c = 0; c < columns.size(); c++) {
                FieldVector vector = root.getVector(c);
                Set<Object> values = new HashSet<>();
                Object min = null;
                Object max = null;
                long nonNull = 0;
                for (int row = 0; row < rows; row++) {
                    Object value = vector.getObject(row);
                    if (value == null) {
                        continue;
                    }
                    // Text is mutable and not Comparable; the String orders as the UTF-8 bytes do for Latin text
                    Object key = value instanceof Text text ? text.toString() : value;
                    values.add(key);
                    nonNull++;
                    min = min == null || compare(key, min) < 0 ? key : min;
                    max = max == null || compare(key, max) > 0 ? key : max;
                }
                columns.get(c).add(new Part(values.size(), nonNull, min, max, values));
            }
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read Arrow IPC file " + split.file() + ": " + reason, e);
        }
    }

    /** Orders values of one column; 0 (no order) for values that are not mutually comparable. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof Comparable x && a.getClass() == b.getClass()) {
            return x.compareTo(b);
        }
        return 0;
    }

    /** The estimate for {@code column}, whose table has {@code tableNonNull} non-null values. */
    Estimate distinct(int column, long tableNonNull) {
        List<Part> parts = columns.get(column).stream().filter(part -> part.rows() > 0).toList();
        if (tableNonNull == 0) {
            return Estimate.exact(0);
        }
        if (parts.isEmpty()) {
            return Estimate.absent();
        }
        long sampled = parts.stream().mapToLong(Part::rows).sum();
        if (parts.size() == 1 || sampled >= tableNonNull) {
            Part only = parts.get(0);
            return parts.size() == 1 ? DistinctEstimator.fromSample(only.distinct(), only.rows(), tableNonNull)
                    : DistinctEstimator.fromSample(union(parts), sampled, tableNonNull);
        }
        if (disjoint(parts)) {
            double share = parts.stream().mapToLong(Part::distinct).sum() / (double) sampled;
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

    /**
     * Whether the parts' ranges follow each other without sharing a value. Parts start at batch
     * starts and are short, so sorted data gives strictly separate ranges; equal bounds (a constant
     * column) count as shared.
     */
    private static boolean disjoint(List<Part> parts) {
        List<Part> sorted = new ArrayList<>(parts);
        sorted.sort((a, b) -> compare(a.min(), b.min()));
        for (int i = 1; i < sorted.size(); i++) {
            Part previous = sorted.get(i - 1);
            Part part = sorted.get(i);
            if (previous.max().getClass() != part.min().getClass() || !(part.min() instanceof Comparable)
                    || compare(part.min(), previous.max()) <= 0) {
                return false;
            }
        }
        return true;
    }
}
