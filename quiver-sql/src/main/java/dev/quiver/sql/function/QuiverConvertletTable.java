package dev.quiver.sql.function;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's standard SQL-to-Rex conversion, except for date and time arithmetic, which becomes
 * calls of the registry's functions (so it is computed, and folded, by the engine's kernels):
 * <ul>
 * <li>{@code date ± integer}: {@code date_add_days}, {@code date_sub_days}; {@code date - date}:
 *     {@code date_diff('day', ..)};
 * <li>{@code date ± interval} and {@code timestamp ± interval} (a TIMESTAMP), {@code TIMESTAMPADD}:
 *     {@code timestamp_add_micros} or {@code date_add_months} with the interval lowered to a count
 *     ({@link IntervalLowering}), computed here when both sides are constants ({@link DatetimeArithmetic});
 * <li>{@code TIMESTAMPDIFF(unit, a, b)}: {@code date_sub('unit', a, b)}, whole units elapsed.
 * </ul>
 */
public final class QuiverConvertletTable implements SqlRexConvertletTable {
    public static final QuiverConvertletTable INSTANCE = new QuiverConvertletTable();

    private QuiverConvertletTable() {}

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (call.getOperator() == DatetimeOperators.PLUS || call.getOperator() == DatetimeOperators.MINUS) {
            return this::arithmetic;
        }
        if (call.getKind() == SqlKind.TIMESTAMP_DIFF && call.operand(0) instanceof SqlIntervalQualifier) {
            return this::timestampDiff;
        }
        if (call.getKind() == SqlKind.TIMESTAMP_ADD && call.operand(0) instanceof SqlIntervalQualifier) {
            return this::timestampAdd;
        }

        return StandardConvertletTable.INSTANCE.get(call);
    }

    private RexNode arithmetic(SqlRexContext cx, SqlCall call) {
        SqlKind kind = call.getOperator().getKind();
        RelDataType leftType = cx.getValidator().getValidatedNodeType(call.operand(0));
        RelDataType rightType = cx.getValidator().getValidatedNodeType(call.operand(1));
        DatetimeOperators.Form form = DatetimeOperators.Form.of(kind, leftType, rightType);
        if (form == null) {
            SqlCall standard = (kind == SqlKind.PLUS ? SqlStdOperatorTable.PLUS : SqlStdOperatorTable.MINUS)
                    .createCall(call.getParserPosition(), call.getOperandList());
            return StandardConvertletTable.INSTANCE.get(standard).convertCall(cx, standard);
        }
        RexBuilder rexBuilder = cx.getRexBuilder();
        RelDataType type = cx.getValidator().getValidatedNodeType(call);
        List<SqlNode> operands = call.getOperandList();
        boolean swap = form == DatetimeOperators.Form.INTEGER_DATE || form == DatetimeOperators.Form.INTERVAL_DATETIME;
        RexNode left = cx.convertExpression(operands.get(swap ? 1 : 0));
        RexNode right = cx.convertExpression(operands.get(swap ? 0 : 1));
        boolean minus = kind == SqlKind.MINUS;
        return switch (form) {
            case DATE_INTEGER, INTEGER_DATE -> call(rexBuilder, type, minus ? "date_sub_days" : "date_add_days", left, right);
            case DATE_DATE -> call(rexBuilder, type, "date_diff", rexBuilder.makeLiteral("day"), right, left);
            case DATETIME_INTERVAL, INTERVAL_DATETIME -> intervalArithmetic(rexBuilder, type, left, right, minus);
        };
    }

    private RexNode intervalArithmetic(RexBuilder rexBuilder, RelDataType type, RexNode datetime, RexNode interval, boolean minus) {
        RexNode count = IntervalLowering.count(rexBuilder, interval, minus);
        DatetimeArithmetic.Unit unit = IntervalLowering.isYearMonth(interval.getType()) ? DatetimeArithmetic.Unit.MONTHS
                : DatetimeArithmetic.Unit.MICROS;
        return DatetimeArithmetic.add(rexBuilder, type, datetime, count, unit);
    }

    /** {@code TIMESTAMPADD(unit, n, x)}: x plus n units, typed as Calcite types it (a DATE plus days or months stays a DATE). */
    private RexNode timestampAdd(SqlRexContext cx, SqlCall call) {
        SqlIntervalQualifier qualifier = call.operand(0);
        if (qualifier.timeUnitRange.endUnit != null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "TIMESTAMPADD adds one unit, not " + qualifier);
        }
        RexBuilder rexBuilder = cx.getRexBuilder();
        TimeUnit unit = qualifier.timeUnitRange.startUnit;
        RexNode count = DatetimeArithmetic.unitCount(rexBuilder, unit, cx.convertExpression(call.operand(1)));
        RexNode datetime = cx.convertExpression(call.operand(2));
        return DatetimeArithmetic.add(rexBuilder, cx.getValidator().getValidatedNodeType(call), datetime, count, DatetimeArithmetic.unitOf(unit));
    }

    private RexNode timestampDiff(SqlRexContext cx, SqlCall call) {
        SqlIntervalQualifier unit = call.operand(0);
        RelDataType type = cx.getValidator().getValidatedNodeType(call);
        RexBuilder rexBuilder = cx.getRexBuilder();
        RexNode start = cx.convertExpression(call.operand(1));
        RexNode end = cx.convertExpression(call.operand(2));
        String part = unit.timeUnitRange.startUnit.name().toLowerCase(Locale.ROOT);
        if (unit.timeUnitRange.endUnit != null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "TIMESTAMPDIFF counts one unit, not " + unit);
        }
        RelDataType bigint = rexBuilder.getTypeFactory().createTypeWithNullability(
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BIGINT), type.isNullable());
        return rexBuilder.makeCast(type, call(rexBuilder, bigint, "date_sub", rexBuilder.makeLiteral(part), start, end));
    }

    private static RexNode call(RexBuilder rexBuilder, RelDataType type, String name, RexNode... operands) {
        return DatetimeArithmetic.call(rexBuilder, type, name, operands);
    }
}
