package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.NotExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.function.ArgumentTypes;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.function.IntervalLowering;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calls of Calcite's own operators that stand for registry functions: the special syntax the
 * parser turns into standard operators ({@code TRIM(LEADING .. FROM ..)}, {@code EXTRACT},
 * {@code ||}, {@code date + INTERVAL}), and standard functions Calcite's rules create. Each maps to
 * the registry function that computes it, so the engine has one implementation of each.
 */
final class StandardCalls {
    private static final FunctionRegistry REGISTRY = FunctionRegistry.builtins();

    private StandardCalls() {}

    static PhysicalExpr translate(RexTranslator translator, RexCall call, ArrowType type) {
        List<RexNode> operands = call.getOperands();
        switch (call.getKind()) {
            case COALESCE:
                return function("coalesce").call(translator.translate(operands), type);
            case EXTRACT:
                return extract(translator, call, type);
            case TRIM:
                return trim(translator, call, type);
            case PLUS, MINUS:
                return dateArithmetic(translator, call, type);
            case LIKE, SIMILAR:
                return like(translator, call);
            case POSITION:
                return position(translator, call, type);
            case FLOOR, CEIL:
                return floorOrCeil(translator, call, type);
            case ITEM:
                return item(translator, call, type);
            case ARRAY_VALUE_CONSTRUCTOR:
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, "List literals ([1, 2, 3]) are only supported as constants to unnest: "
                        + "SELECT unnest([1, 2, 3]) and FROM unnest([1, 2, 3]); lists come from nested columns of files");
            default:
                break;
        }
        if (call.getOperator() == SqlStdOperatorTable.CONCAT) {
            return function("||").call(translator.translate(operands), type);
        }
        Optional<ScalarFunction> byName = call.getOperator() instanceof SqlFunction ? REGISTRY.lookup(call.getOperator().getName())
                : Optional.empty();
        if (byName.isPresent()) {
            return RexTranslator.castTo(byName.get().call(translator.translate(operands), type), type);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The function " + call.getOperator().getName() + " is not supported");
    }

    private static ScalarFunction function(String name) {
        return REGISTRY.require(name);
    }

    /** {@code EXTRACT(unit FROM x)}: {@code date_part('unit', x)}. */
    private static PhysicalExpr extract(RexTranslator translator, RexCall call, ArrowType type) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        if (unit.endUnit != null || unit == TimeUnitRange.NANOSECOND) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "EXTRACT(" + unit + " FROM ...) is not supported");
        }
        List<PhysicalExpr> args = List.of(new LiteralExpr(unit.name().toLowerCase(Locale.ROOT), QuiverTypes.UTF8),
                translator.translate(call.getOperands().get(1)));
        ScalarFunction datePart = function("date_part");
        return RexTranslator.castTo(datePart.call(args, datePart.resultType(ArgumentTypes.of(args))), type);
    }

    /** {@code TRIM([BOTH|LEADING|TRAILING] [characters] FROM s)}: btrim, ltrim or rtrim of (s, characters). */
    private static PhysicalExpr trim(RexTranslator translator, RexCall call, ArrowType type) {
        List<RexNode> operands = call.getOperands();
        SqlTrimFunction.Flag flag = ((RexLiteral) operands.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        String name = switch (flag) {
            case BOTH -> "btrim";
            case LEADING -> "ltrim";
            case TRAILING -> "rtrim";
        };
        return function(name).call(List.of(translator.translate(operands.get(2)), translator.translate(operands.get(1))), type);
    }

    /** {@code s [NOT] LIKE | ILIKE | SIMILAR TO pattern [ESCAPE e]}: like, ilike or similar_to, negated by NOT. */
    private static PhysicalExpr like(RexTranslator translator, RexCall call) {
        SqlLikeOperator operator = (SqlLikeOperator) call.getOperator();
        String name = call.getKind() == SqlKind.SIMILAR ? "similar_to" : operator.isCaseSensitive() ? "like" : "ilike";
        PhysicalExpr matches = function(name).call(translator.translate(call.getOperands()), QuiverTypes.BOOLEAN);
        return operator.isNegated() ? new NotExpr(matches) : matches;
    }

    /** {@code POSITION(needle IN s)}: strpos(s, needle). */
    private static PhysicalExpr position(RexTranslator translator, RexCall call, ArrowType type) {
        if (call.getOperands().size() > 2) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "POSITION(.. IN .. FROM ..) is not supported: " + call);
        }
        PhysicalExpr strpos = function("strpos").call(
                List.of(translator.translate(call.getOperands().get(1)), translator.translate(call.getOperands().get(0))), QuiverTypes.INT64);
        return RexTranslator.castTo(strpos, type);
    }

    /**
     * {@code l[i]} and {@code m[key]} (Calcite's ITEM, which types them): {@code list_extract} or
     * {@code map_extract_value}. A struct is opaque to SQL (docs/parquet.md), so {@code s['f']} is not there.
     */
    private static PhysicalExpr item(RexTranslator translator, RexCall call, ArrowType type) {
        SqlTypeName container = call.getOperands().get(0).getType().getSqlTypeName();
        String name = switch (container) {
            case ARRAY -> "list_extract";
            case MAP -> "map_extract_value";
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "x[...] takes an element of a list or the value of a map key; "
                    + "it is not supported on " + call.getOperands().get(0).getType().getFullTypeString());
        };
        if (type instanceof ArrowType.List || type instanceof ArrowType.Map || type instanceof ArrowType.Struct) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "x[...] of a list or map whose elements are lists, maps or structs is not "
                    + "supported; only elements of a flat type (numbers, strings, dates...) can be taken out");
        }
        return function(name).call(translator.translate(call.getOperands()), type);
    }

    /** {@code FLOOR(x)} and {@code CEIL(x)} of a number (of a date or time with a unit: not yet). */
    private static PhysicalExpr floorOrCeil(RexTranslator translator, RexCall call, ArrowType type) {
        if (call.getOperands().size() != 1) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, call.getKind() + " to a unit of time is not supported: " + call);
        }
        ScalarFunction function = function(call.getKind() == SqlKind.FLOOR ? "floor" : "ceil");
        PhysicalExpr x = translator.translate(call.getOperands().get(0));
        ArrowType own = function.resultType(dev.quiver.engine.expr.function.ArgumentTypes.of(List.of(x)));
        return RexTranslator.castTo(function.call(List.of(x), own), type);
    }

    /**
     * {@code datetime ± interval} (Calcite's datetime plus and minus, from {@code date ± interval}
     * and TIMESTAMPADD): the interval lowered to months or microseconds and added by
     * {@code date_add_months} or {@code timestamp_add_micros}; a DATE result is the day of the
     * TIMESTAMP sum.
     */
    private static PhysicalExpr dateArithmetic(RexTranslator translator, RexCall call, ArrowType type) {
        RexNode datetime = call.getOperands().get(0);
        RexNode interval = call.getOperands().get(1);
        if (SqlTypeUtil.isInterval(datetime.getType())) {
            RexNode swap = datetime;
            datetime = interval;
            interval = swap;
        }
        if (!SqlTypeUtil.isInterval(interval.getType()) || call.getOperands().size() != 2) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Date arithmetic " + call + " is not supported");
        }
        boolean months = IntervalLowering.isYearMonth(interval.getType());
        PhysicalExpr count = translator.translate(IntervalLowering.count(translator.rexBuilder(), interval, call.getKind() == SqlKind.MINUS));
        PhysicalExpr value = translator.translate(datetime);
        if (type instanceof ArrowType.Date && value.type() instanceof ArrowType.Date && months) {
            return function("date_add_months").call(List.of(value, count), QuiverTypes.DATE32);
        }
        PhysicalExpr timestamp = CastExpr.to(value, QuiverTypes.TIMESTAMP);
        PhysicalExpr sum = function(months ? "date_add_months" : "timestamp_add_micros").call(List.of(timestamp, count), QuiverTypes.TIMESTAMP);
        return CastExpr.to(sum, type);
    }
}
