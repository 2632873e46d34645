package dev.quiver.sql.function;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.kernel.DateArithmeticKernels;
import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.sql.physical.TemporalLiterals;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Adding a count of months, days or microseconds to a DATE or TIMESTAMP, as registry calls
 * ({@code date_add_months}, {@code date_add_days}, {@code timestamp_add_micros}); what
 * {@code x ± interval} and {@code TIMESTAMPADD} become. When both operands are constants the sum
 * is computed here, by the same engine arithmetic the kernels use, so the constant the plan holds
 * is the one the engine computes (Calcite's own folding of datetime arithmetic works in
 * milliseconds and drops microseconds).
 */
final class DatetimeArithmetic {
    /** What a count counts. */
    enum Unit {
        MONTHS, DAYS, MICROS
    }

    private static final FunctionRegistry REGISTRY = FunctionRegistry.builtins();

    private DatetimeArithmetic() {}

    /** {@code datetime + count} as a value of {@code type} (DATE, only for a DATE plus months or days; or TIMESTAMP). */
    static RexNode add(RexBuilder rexBuilder, RelDataType type, RexNode datetime, RexNode count, Unit unit) {
        RexNode folded = fold(rexBuilder, type, datetime, count, unit);
        if (folded != null) {
            return folded;
        }
        boolean date = datetime.getType().getSqlTypeName() == SqlTypeName.DATE;
        if (type.getSqlTypeName() == SqlTypeName.DATE && date && unit != Unit.MICROS) {
            return call(rexBuilder, type, unit == Unit.MONTHS ? "date_add_months" : "date_add_days", datetime, count);
        }
        RelDataTypeFactory typeFactory = rexBuilder.getTypeFactory();
        RelDataType timestamp = typeFactory.createTypeWithNullability(
                typeFactory.createSqlType(SqlTypeName.TIMESTAMP, DatetimeOperators.TIMESTAMP_PRECISION), type.isNullable());
        RexNode base = date ? rexBuilder.makeCast(typeFactory.createTypeWithNullability(timestamp, datetime.getType().isNullable()), datetime)
                : datetime;
        RexNode micros = unit == Unit.DAYS ? rexBuilder.makeCall(SqlStdOperatorTable.MULTIPLY, count,
                rexBuilder.makeBigintLiteral(BigDecimal.valueOf(DateKernels.MICROS_PER_DAY))) : count;
        RexNode sum = call(rexBuilder, timestamp, unit == Unit.MONTHS ? "date_add_months" : "timestamp_add_micros", base, micros);
        return type.equals(timestamp) ? sum : rexBuilder.makeCast(type, sum);
    }

    /** The sum of two constants, or null when either is not one, or the sum fails (it then fails at run time, with its error). */
    private static RexNode fold(RexBuilder rexBuilder, RelDataType type, RexNode datetime, RexNode count, Unit unit) {
        if (!(datetime instanceof RexLiteral value) || !(count instanceof RexLiteral amount) || value.isNull() || amount.isNull()) {
            return null;
        }
        boolean date = value.getType().getSqlTypeName() == SqlTypeName.DATE;
        long n = amount.getValueAs(BigDecimal.class).longValue();
        try {
            if (type.getSqlTypeName() == SqlTypeName.DATE) {
                if (!date || unit == Unit.MICROS) {
                    return null;
                }
                int days = value.getValueAs(Integer.class);
                long sum = unit == Unit.MONTHS ? DateArithmeticKernels.plusMonths(days, n, "date arithmetic") : Math.addExact(days, n);
                return inLiteralRange(sum * DateKernels.MICROS_PER_DAY) ? TemporalLiterals.date(rexBuilder, (int) sum) : null;
            }
            long micros = date ? value.getValueAs(Integer.class) * DateKernels.MICROS_PER_DAY : TemporalLiterals.micros(value);
            long sum = switch (unit) {
                case MONTHS -> DateArithmeticKernels.plusMonths(micros, n, "date arithmetic");
                case DAYS -> DateArithmeticKernels.plusMicros(micros, Math.multiplyExact(n, DateKernels.MICROS_PER_DAY), "date arithmetic");
                case MICROS -> DateArithmeticKernels.plusMicros(micros, n, "date arithmetic");
            };
            int precision = type.getPrecision();
            long unitOfPrecision = (long) Math.pow(10, 6 - Math.min(6, precision));
            if (Math.floorMod(sum, unitOfPrecision) != 0 || !inLiteralRange(sum)) {
                return null; // a literal of the type's precision would drop digits the engine keeps
            }
            return rexBuilder.makeCast(type, TemporalLiterals.timestamp(rexBuilder, sum, precision), true, false);
        } catch (QuiverException | ArithmeticException e) {
            return null;
        }
    }

    /** Whether Calcite can hold the value as a literal (years 0 to 9999); beyond, the engine computes it at run time. */
    private static boolean inLiteralRange(long micros) {
        int year = DateKernels.year(DateKernels.days(micros));
        return year >= 0 && year <= 9999;
    }

    /** The count and unit of {@code n} TIMESTAMPADD units. */
    static RexNode unitCount(RexBuilder rexBuilder, TimeUnit unit, RexNode n) {
        long factor = switch (unit) {
            case YEAR -> 12;
            case QUARTER -> 3;
            case MONTH, DAY, MICROSECOND -> 1;
            case WEEK -> 7;
            case HOUR -> DateKernels.MICROS_PER_HOUR;
            case MINUTE -> DateKernels.MICROS_PER_MINUTE;
            case SECOND -> DateKernels.MICROS_PER_SECOND;
            case MILLISECOND -> 1000;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "TIMESTAMPADD does not add " + unit);
        };
        RelDataType type = rexBuilder.getTypeFactory().createTypeWithNullability(
                rexBuilder.getTypeFactory().createSqlType(unitOf(unit) == Unit.MONTHS ? SqlTypeName.INTEGER : SqlTypeName.BIGINT),
                n.getType().isNullable());
        RexNode count = rexBuilder.makeCast(type, n);
        if (factor == 1) {
            return count;
        }
        if (count instanceof RexLiteral literal && !literal.isNull()) {
            return rexBuilder.makeLiteral(literal.getValueAs(BigDecimal.class).multiply(BigDecimal.valueOf(factor)), type);
        }
        return rexBuilder.makeCall(SqlStdOperatorTable.MULTIPLY, count, rexBuilder.makeLiteral(BigDecimal.valueOf(factor), type));
    }

    static Unit unitOf(TimeUnit unit) {
        return switch (unit) {
            case YEAR, QUARTER, MONTH -> Unit.MONTHS;
            case WEEK, DAY -> Unit.DAYS;
            default -> Unit.MICROS;
        };
    }

    static RexNode call(RexBuilder rexBuilder, RelDataType type, String name, RexNode... operands) {
        return rexBuilder.makeCall(type, new RegistrySqlFunction(name, REGISTRY.require(name)), List.of(operands));
    }
}
