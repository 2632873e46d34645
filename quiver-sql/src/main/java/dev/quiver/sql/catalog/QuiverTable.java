package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Quiver {@link TableSource} seen by Calcite. {@code unwrap(TableSource.class)} gives the source
 * back to the physical planner. The source's statistics feed the optimizer: the row count, the
 * source's declared unique keys and every column whose exact distinct count equals the exact row
 * count as unique keys, and per-column distinct
 * counts through the {@link BuiltInMetadata.DistinctRowCount.Handler} that Calcite's metadata
 * looks up on the table of a scan.
 */
public final class QuiverTable extends AbstractTable implements BuiltInMetadata.DistinctRowCount.Handler {
    private final TableSource source;
    private final dev.quiver.engine.stats.Statistics statistics;
    private final List<ImmutableBitSet> declaredKeys;

    public QuiverTable(TableSource source) {
        this.source = requireNonNull(source, "source is null");
        this.statistics = requireNonNull(source.statistics(), "statistics is null");
        this.declaredKeys = requireNonNull(source.uniqueKeys(), "uniqueKeys is null").stream()
                .filter(key -> !key.isEmpty())
                .map(ImmutableBitSet::of)
                .toList();
    }

    public TableSource source() {
        return source;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return ArrowToCalciteTypes.rowType(typeFactory, source.name(), source.schema());
    }

    @Override
    public Statistic getStatistic() {
        OptionalLong rows = statistics.rowCount().asOptional();
        if (rows.isEmpty()) {
            return Statistics.UNKNOWN;
        }
        List<ImmutableBitSet> keys = new ArrayList<>(declaredKeys);
        for (int i = 0; i < statistics.columns().size(); i++) {
            if (isUnique(i) && !keys.contains(ImmutableBitSet.of(i))) {
                keys.add(ImmutableBitSet.of(i));
            }
        }
        return Statistics.of(rows.getAsLong(), keys);
    }

    private boolean containsDeclaredKey(ImmutableBitSet columns) {
        return declaredKeys.stream().anyMatch(columns::contains);
    }

    /**
     * Only exact counts make a key: Calcite uses keys to drop aggregates and distincts, so an
     * estimate that happens to equal the row count would change results.
     */
    private boolean isUnique(int column) {
        Estimate rows = statistics.rowCount();
        Estimate distinct = columnStatistics(column).distinctCount();
        return rows.isExact() && distinct.isExact() && rows.value() > 0 && distinct.value() == rows.value();
    }

    private boolean isEstimatedUnique(int column) {
        Estimate rows = statistics.rowCount();
        Estimate distinct = columnStatistics(column).distinctCount();
        return rows.isKnown() && distinct.isKnown() && rows.value() > 0 && distinct.value() >= rows.value();
    }

    private ColumnStatistics columnStatistics(int column) {
        return column < statistics.columns().size() ? statistics.columns().get(column) : ColumnStatistics.unknown();
    }

    /**
     * Distinct values of a group of columns: the row count if the group holds a unique column or
     * a declared key ({@link TableSource#uniqueKeys()}),
     * else the product of the columns' distinct counts capped at the row count; reduced for a
     * predicate as Calcite does elsewhere. Unknown if a column's distinct count is unknown.
     */
    @Override
    public @Nullable Double getDistinctRowCount(RelNode rel, RelMetadataQuery mq, ImmutableBitSet groupKey, @Nullable RexNode predicate) {
        OptionalLong rows = statistics.rowCount().asOptional();
        if (rows.isEmpty()) {
            return null;
        }
        double tableRows = rows.getAsLong();
        double distinct = 1;
        boolean unique = containsDeclaredKey(groupKey);
        for (int column : groupKey) {
            if (unique || isEstimatedUnique(column)) {
                unique = true;
                break;
            }
            Estimate ndv = columnStatistics(column).distinctCount();
            if (!ndv.isKnown()) {
                return null;
            }
            distinct *= Math.max(1, ndv.value());
        }
        distinct = unique ? tableRows : Math.min(distinct, tableRows);
        if (predicate == null || predicate.isAlwaysTrue()) {
            return distinct;
        }
        Double selectivity = mq.getSelectivity(rel, predicate);
        double filteredRows = tableRows * (selectivity == null ? RelMdUtil.guessSelectivity(predicate) : selectivity);
        return RelMdUtil.numDistinctVals(distinct, filteredRows);
    }

    @Override
    public <C extends Object> @Nullable C unwrap(Class<C> type) {
        if (type.isInstance(source)) {
            return type.cast(source);
        }
        return super.unwrap(type);
    }
}
