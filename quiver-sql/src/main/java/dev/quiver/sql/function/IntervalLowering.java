package dev.quiver.sql.function;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Interval expressions as the counts the engine adds: a day-time interval as BIGINT microseconds,
 * a year-month interval as INTEGER months. The engine has no interval type; intervals are only
 * ever added to dates and timestamps, so they are lowered where they are used. Handles literals
 * ({@code INTERVAL '90' MINUTE}, {@code INTERVAL '1-2' YEAR TO MONTH}), multiples
 * ({@code n * INTERVAL '1' DAY}), negation and sums of intervals of one kind.
 */
public final class IntervalLowering {
    private static final BigDecimal MICROS_PER_MILLI = BigDecimal.valueOf(1000);

    private IntervalLowering() {}

    /** Whether {@code type} is a year-month interval (months), rather than a day-time one (microseconds). */
    public static boolean isYearMonth(RelDataType type) {
        return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /** {@code interval} as a count: BIGINT microseconds (day-time) or INTEGER months (year-month), negated when asked. */
    public static RexNode count(RexBuilder rexBuilder, RexNode interval, boolean negate) {
        RexNode count = lower(rexBuilder, interval);
        return negate ? rexBuilder.makeCall(SqlStdOperatorTable.UNARY_MINUS, count) : count;
    }

    private static RexNode lower(RexBuilder rexBuilder, RexNode interval) {
        boolean months = isYearMonth(interval.getType());
        if (interval instanceof RexLiteral literal) {
            BigDecimal value = literal.getValueAs(BigDecimal.class);
            if (value == null) {
                return rexBuilder.makeNullLiteral(countType(rexBuilder, months));
            }
            // Calcite keeps day-time intervals in milliseconds, year-month intervals in months
            return months ? rexBuilder.makeExactLiteral(value, countType(rexBuilder, true))
                    : rexBuilder.makeExactLiteral(value.multiply(MICROS_PER_MILLI), countType(rexBuilder, false));
        }
        if (interval instanceof RexCall call) {
            switch (call.getKind()) {
                case MINUS_PREFIX, CHECKED_MINUS_PREFIX:
                    return rexBuilder.makeCall(SqlStdOperatorTable.UNARY_MINUS, lower(rexBuilder, call.getOperands().get(0)));
                case PLUS_PREFIX:
                    return lower(rexBuilder, call.getOperands().get(0));
                case PLUS, MINUS, CHECKED_PLUS, CHECKED_MINUS:
                    if (SqlTypeUtil.isInterval(call.getOperands().get(0).getType()) && SqlTypeUtil.isInterval(call.getOperands().get(1).getType())) {
                        boolean plus = call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.CHECKED_PLUS;
                        return rexBuilder.makeCall(plus ? SqlStdOperatorTable.PLUS
                                : SqlStdOperatorTable.MINUS, lower(rexBuilder, call.getOperands().get(0)), lower(rexBuilder, call.getOperands().get(1)));
                    }
                    break;
                case TIMES, CHECKED_TIMES:
                    return multiple(rexBuilder, call, months);
                default:
                    break;
            }
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The interval expression " + interval
                + " is not supported; use an INTERVAL literal, or an integer times one (n * INTERVAL '1' DAY)");
    }

    /** {@code n * interval} or {@code interval * n} with an integer n. */
    private static RexNode multiple(RexBuilder rexBuilder, RexCall call, boolean months) {
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        RexNode interval = SqlTypeUtil.isInterval(left.getType()) ? left : right;
        RexNode factor = interval == left ? right : left;
        if (!SqlTypeUtil.isExactNumeric(factor.getType()) || factor.getType().getScale() > 0) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Only whole multiples of an interval are supported: " + call);
        }
        RelDataType type = countType(rexBuilder, months);
        RexNode count = rexBuilder.makeCast(rexBuilder.getTypeFactory().createTypeWithNullability(type, factor.getType().isNullable()), factor);
        return rexBuilder.makeCall(SqlStdOperatorTable.MULTIPLY, count, lower(rexBuilder, interval));
    }

    private static RelDataType countType(RexBuilder rexBuilder, boolean months) {
        return rexBuilder.getTypeFactory().createSqlType(months ? SqlTypeName.INTEGER : SqlTypeName.BIGINT);
    }
}
