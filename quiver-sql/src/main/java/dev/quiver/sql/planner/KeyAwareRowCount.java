package dev.quiver.sql.planner;

import java.util.List;
import java.util.OptionalDouble;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdRowCount;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Join cardinality that respects keys: an equi-join of L and R produces |L|·|R| / max(ndv(L keys),
 * ndv(R keys)) rows, times a guess for any residual condition. Calcite's default (15% of the cross
 * product per equality) ignores keys and made the join orderer pick many-to-many joins first.
 * Distinct counts come from the tables' statistics (see {@code QuiverTable}). A join on a table's
 * key is estimated as a foreign-key join instead (see {@link #foreignKeyRows}).
 */
public final class KeyAwareRowCount extends RelMdRowCount {
    /**
     * Calcite's default metadata with this row count first. Immutable and shared: Janino generates
     * the handlers once per provider, so one instance serves every query.
     */
    public static final JaninoRelMetadataProvider PROVIDER = JaninoRelMetadataProvider.of(ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new KeyAwareRowCount(), BuiltInMetadata.RowCount.Handler.class),
            DefaultRelMetadataProvider.INSTANCE)));

    private KeyAwareRowCount() {}

    @Override
    public @Nullable Double getRowCount(Join join, RelMetadataQuery mq) {
        JoinRelType type = join.getJoinType();
        JoinInfo info = join.analyzeCondition();
        if ((type != JoinRelType.INNER && type != JoinRelType.LEFT) || info.leftKeys.isEmpty()) {
            return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
        }
        Double left = mq.getRowCount(join.getLeft());
        Double right = mq.getRowCount(join.getRight());
        Double leftDistinct = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(info.leftKeys), null);
        Double rightDistinct = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(info.rightKeys), null);
        if (left == null || right == null || leftDistinct == null || rightDistinct == null) {
            return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
        }
        double rows = left * right / Math.max(1.0, Math.max(leftDistinct, rightDistinct));
        OptionalDouble leftKeyed = foreignKeyRows(mq, join.getLeft(), info.leftKeys, left, right);
        OptionalDouble rightKeyed = foreignKeyRows(mq, join.getRight(), info.rightKeys, right, left);
        if (leftKeyed.isPresent() || rightKeyed.isPresent()) {
            rows = Math.min(leftKeyed.orElse(Double.MAX_VALUE), rightKeyed.orElse(Double.MAX_VALUE));
        }
        if (!info.isEqui()) {
            rows *= RelMdUtil.guessSelectivity(info.getRemaining(join.getCluster().getRexBuilder()));
        }
        return type == JoinRelType.LEFT ? Math.max(rows, left) : rows;
    }

    /**
     * The rows of a join whose keys on {@code keySide} are a key of a table that side reads (and
     * still unique there): taken as a foreign-key join, each row of the other side matches one row
     * of that table, and survives with the fraction of the table that {@code keySide} keeps. This
     * matters for keys of several columns (lineitem ⋈ partsupp), whose distinct counts the product of
     * the columns' counts overstates; empty when the keys are not such a table key.
     */
    private static OptionalDouble foreignKeyRows(RelMetadataQuery mq, RelNode keySide, List<Integer> keys, double keySideRows, double otherRows) {
        // The origin and table-key checks come first: they are cheap, and the uniqueness check (which
        // pulls predicates up through every join below) would otherwise run for every non-key side too.
        RelOptTable table = null;
        ImmutableBitSet.Builder columns = ImmutableBitSet.builder();
        for (int key : keys) {
            RelColumnOrigin origin = mq.getColumnOrigin(keySide, key);
            if (origin == null || origin.isDerived()
                    || (table != null && !table.getQualifiedName().equals(origin.getOriginTable().getQualifiedName()))) {
                return OptionalDouble.empty();
            }
            table = origin.getOriginTable();
            columns.set(origin.getOriginColumnOrdinal());
        }
        if (table == null || !table.isKey(columns.build()) || table.getRowCount() <= 0
                || !Boolean.TRUE.equals(mq.areColumnsUnique(keySide, ImmutableBitSet.of(keys)))) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(otherRows * Math.min(1.0, keySideRows / table.getRowCount()));
    }
}
