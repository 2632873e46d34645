package dev.quiver.engine.source.files;

import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.stats.ColumnStatistics;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Decides from min/max and null counts that no row of a part of a table (a Parquet row group, a
 * file of one Hive partition) can satisfy a filter.
 * Understands {@code column <op> literal} (either side), AND, OR, IN lists and IS [NOT] NULL over
 * columns of the table's schema, possibly under a widening numeric cast; anything else keeps
 * the row group. Sound, never complete: a kept row group may still hold no matching row.
 */
public final class StatisticsPruner {
    private StatisticsPruner() {}

    /**
     * True when {@code filters} (a conjunction over the table's columns) rule out every row of a
     * part with these column statistics (by table column) and {@code rowCount} rows.
     */
    public static boolean canSkip(List<PhysicalExpr> filters, List<ColumnStatistics> columns, long rowCount) {
        Part part = new Part(columns, rowCount);
        for (PhysicalExpr filter : filters) {
            if (neverTrue(filter, part)) {
                return true;
            }
        }
        return false;
    }

    /** What the pruner knows of a part: statistics by table column and the row count. */
    private record Part(List<ColumnStatistics> columns, long rowCount) {}

    private static boolean neverTrue(PhysicalExpr expr, Part part) {
        if (expr instanceof BinaryExpr binary) {
            return switch (binary.op()) {
                case AND -> neverTrue(binary.left(), part) || neverTrue(binary.right(), part);
                case OR -> neverTrue(binary.left(), part) && neverTrue(binary.right(), part);
                case EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ -> comparisonNeverTrue(binary, part);
                default -> false;
            };
        }
        if (expr instanceof IsNullExpr isNull) {
            Optional<ColumnExpr> column = column(isNull.input());
            if (column.isEmpty()) {
                return false;
            }
            ColumnStatistics stats = part.columns().get(column.get().index());
            if (!stats.nullCount().isExact()) {
                return false;
            }
            long nulls = stats.nullCount().value();
            return isNull.negated() ? nulls == part.rowCount() : nulls == 0;
        }
        if (expr instanceof InListExpr in && !in.negated()) {
            Optional<ColumnExpr> column = column(in.input());
            if (column.isEmpty() || in.values().isEmpty()) {
                return false;
            }
            ColumnStatistics stats = part.columns().get(column.get().index());
            for (Object value : in.values()) {
                if (value == null || !outside(stats, value, BinaryOperator.EQ, part)) {
                    return false;
                }
            }
            return true;
        }
        if (expr instanceof LiteralExpr literal) {
            return Boolean.FALSE.equals(literal.value()) || literal.value() == null;
        }
        return false;
    }

    private static boolean comparisonNeverTrue(BinaryExpr binary, Part part) {
        BinaryOperator op = binary.op();
        Optional<ColumnExpr> column = column(binary.left());
        PhysicalExpr other = binary.right();
        if (column.isEmpty()) {
            column = column(binary.right());
            other = binary.left();
            op = flip(op);
        }
        if (column.isEmpty() || !(other instanceof LiteralExpr literal) || literal.value() == null
                || !sameFamily(column.get().type(), literal.type())) {
            return false;
        }
        return outside(part.columns().get(column.get().index()), literal.value(), op, part);
    }

    /** True when no non-NULL value in {@code [min, max]} satisfies {@code value <op> literal}, or the chunk is all NULL. */
    private static boolean outside(ColumnStatistics stats, Object literal, BinaryOperator op, Part part) {
        if (stats.nullCount().isExact() && stats.nullCount().value() == part.rowCount()) {
            return true; // a comparison with NULL is never true
        }
        if (stats.min().isEmpty() || stats.max().isEmpty()) {
            return false;
        }
        Object min = stats.min().get();
        Object max = stats.max().get();
        if (!StatsValues.comparable(min, literal) || !StatsValues.comparable(max, literal)) {
            return false;
        }
        int minVsLiteral = StatsValues.compare(min, literal);
        int maxVsLiteral = StatsValues.compare(max, literal);
        return switch (op) {
            case EQ -> minVsLiteral > 0 || maxVsLiteral < 0;
            case NOT_EQ -> minVsLiteral == 0 && maxVsLiteral == 0 && stats.boundsExact();
            case LT -> minVsLiteral >= 0;
            case LT_EQ -> minVsLiteral > 0;
            case GT -> maxVsLiteral <= 0;
            case GT_EQ -> maxVsLiteral < 0;
            default -> false;
        };
    }

    private static BinaryOperator flip(BinaryOperator op) {
        return switch (op) {
            case LT -> BinaryOperator.GT;
            case LT_EQ -> BinaryOperator.GT_EQ;
            case GT -> BinaryOperator.LT;
            case GT_EQ -> BinaryOperator.LT_EQ;
            default -> op;
        };
    }

    /** The column under {@code expr}, itself or under casts that keep every value exactly. */
    private static Optional<ColumnExpr> column(PhysicalExpr expr) {
        if (expr instanceof ColumnExpr column) {
            return Optional.of(column);
        }
        if (expr instanceof CastExpr cast && exactWidening(cast.input().type(), cast.type())) {
            return column(cast.input());
        }
        return Optional.empty();
    }

    /** Whether values of the two types share one Java representation and order (days vs micros do not). */
    private static boolean sameFamily(ArrowType a, ArrowType b) {
        if (isNumber(a) || isNumber(b)) {
            return isNumber(a) && isNumber(b);
        }
        return a.getTypeID() == b.getTypeID() && (!(a instanceof ArrowType.Timestamp x) || x.getUnit() == ((ArrowType.Timestamp) b).getUnit());
    }

    private static boolean isNumber(ArrowType type) {
        return type instanceof ArrowType.Int || type instanceof ArrowType.Decimal || type instanceof ArrowType.FloatingPoint;
    }

    private static boolean exactWidening(ArrowType from, ArrowType to) {
        if (from instanceof ArrowType.Int a && to instanceof ArrowType.Int b) {
            return a.getBitWidth() <= b.getBitWidth();
        }
        if (from instanceof ArrowType.Int a && to instanceof ArrowType.Decimal d) {
            return d.getPrecision() - d.getScale() >= (a.getBitWidth() == 64 ? 19 : 10);
        }
        if (from instanceof ArrowType.Decimal a && to instanceof ArrowType.Decimal b) {
            return b.getScale() >= a.getScale() && b.getPrecision() - b.getScale() >= a.getPrecision() - a.getScale();
        }
        return from.equals(to);
    }
}
