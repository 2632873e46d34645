package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.files.StatsValues;
import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/** Turns footer statistics into Quiver's {@link ColumnStatistics}, and merges them across row groups. */
final class ParquetStatistics {
    private ParquetStatistics() {}

    /**
     * Statistics of one column chunk; min and max in Quiver's value representation.
     *
     * @param dictionaryValues the number of values in the chunk's dictionary when every data page
     *     is dictionary-encoded, an inexact count when the writer fell back to plain pages (many
     *     distinct values), absent when the chunk has no dictionary
     */
    static ColumnStatistics of(Statistics<?> stats, ParquetColumn column, long rowCount, Estimate dictionaryValues) {
        if (stats == null || stats.isEmpty()) {
            return ColumnStatistics.unknown().withDistinctCount(dictionaryValues.toInexact());
        }
        Estimate nulls = stats.isNumNullsSet() ? Estimate.exact(stats.getNumNulls()) : Estimate.absent();
        if (!stats.hasNonNullValue()) {
            // an all-NULL chunk has no bounds, but its null count says so
            return new ColumnStatistics(nulls, Estimate.exact(0), Optional.empty(), Optional.empty(), nulls.isKnown() && nulls.value() == rowCount);
        }
        Object min = value(stats.genericGetMin(), column);
        Object max = value(stats.genericGetMax(), column);
        // a dictionary may hold values no row uses (writers that store an Arrow dictionary as is)
        Estimate distinct = dictionaryValues.toInexact();
        if (min == null || max == null) {
            return new ColumnStatistics(nulls, distinct, Optional.empty(), Optional.empty(), false);
        }
        // string bounds may be truncated by the writer: still bounds, but not values
        boolean exact = column.kind() != ValueKind.STRING;
        return new ColumnStatistics(nulls, distinct, Optional.of(min), Optional.of(max), exact);
    }

    private static Object value(Object raw, ParquetColumn column) {
        int scale = column.field().getType() instanceof ArrowType.Decimal decimal ? decimal.getScale() : 0;
        return switch (column.kind()) {
            case BOOLEAN, INT32, INT64, DATE, TIMESTAMP_MICROS -> raw;
            case UINT32 -> Integer.toUnsignedLong((Integer) raw);
            case FLOAT -> finite(((Float) raw).doubleValue());
            case DOUBLE -> finite((Double) raw);
            case DECIMAL_INT32 -> BigDecimal.valueOf((Integer) raw, scale);
            case DECIMAL_INT64 -> BigDecimal.valueOf((Long) raw, scale);
            case DECIMAL_BYTES -> new BigDecimal(new BigInteger(((Binary) raw).getBytes()), scale);
            case STRING -> ((Binary) raw).toStringUsingUTF8();
            case TIMESTAMP_MILLIS -> Math.multiplyExact((Long) raw, 1000L);
            case TIMESTAMP_NANOS -> Math.floorDiv((Long) raw, 1000L);
            case NESTED -> null;
        };
    }

    private static Double finite(double value) {
        // NaN bounds order nothing; infinite ones are fine
        return Double.isNaN(value) ? null : value;
    }

    /** Statistics of several row groups together. */
    static List<ColumnStatistics> merge(List<ParquetRowGroup> rowGroups, List<Integer> columns) {
        List<ColumnStatistics> merged = new ArrayList<>(columns.size());
        for (int column : columns) {
            ColumnStatistics total = null;
            for (ParquetRowGroup rowGroup : rowGroups) {
                ColumnStatistics part = rowGroup.columns().get(column);
                total = total == null ? part : merge(total, part);
            }
            merged.add(total == null ? new ColumnStatistics(Estimate.exact(0), Estimate.exact(0), Optional.empty(), Optional.empty(), true)
                    : total.withDistinctCount(ParquetDistinctCounts.estimate(rowGroups, column, total)));
        }
        return merged;
    }

    private static ColumnStatistics merge(ColumnStatistics a, ColumnStatistics b) {
        Estimate nulls = a.nullCount().plus(b.nullCount());
        boolean aEmpty = a.min().isEmpty() && a.boundsExact();
        boolean bEmpty = b.min().isEmpty() && b.boundsExact();
        if (aEmpty || bEmpty) {
            ColumnStatistics other = aEmpty ? b : a;
            return new ColumnStatistics(nulls, Estimate.absent(), other.min(), other.max(), other.boundsExact());
        }
        if (a.min().isEmpty() || a.max().isEmpty() || b.min().isEmpty() || b.max().isEmpty()) {
            return new ColumnStatistics(nulls, Estimate.absent(), Optional.empty(), Optional.empty(), false);
        }
        Object min = StatsValues.compare(a.min().get(), b.min().get()) <= 0 ? a.min().get() : b.min().get();
        Object max = StatsValues.compare(a.max().get(), b.max().get()) >= 0 ? a.max().get() : b.max().get();
        return new ColumnStatistics(nulls, Estimate.absent(), Optional.of(min), Optional.of(max), a.boundsExact() && b.boundsExact());
    }
}
