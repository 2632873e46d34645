package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.engine.operator.sort.SortKey;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Chooses the accumulator for an aggregate from its function, argument type and result type. */
final class Accumulators {
    private Accumulators() {}

    /**
     * A new, empty accumulator of {@code aggregate} for the given mode: PARTIAL and SINGLE update
     * it with raw input, FINAL merges partial states into it. {@code allocator} backs the vectors a
     * DISTINCT aggregate builds while it updates. NOT_SUPPORTED for argument and result types the
     * function has no implementation of.
     */
    public static Accumulator create(AggregateExpr aggregate, AggregateMode mode, BufferAllocator allocator) {
        Accumulator accumulator = createPlain(aggregate, mode);
        if (aggregate.distinct()) {
            return new DistinctAccumulator(accumulator, aggregate.args().get(0).type(), allocator);
        }
        return accumulator;
    }

    private static Accumulator createPlain(AggregateExpr aggregate, AggregateMode mode) {
        ArrowType result = aggregate.type();
        return switch (aggregate.function()) {
            case COUNT -> new CountAccumulator();
            case SUM -> sum(aggregate, result, mode == AggregateMode.FINAL ? result : argType(aggregate));
            case AVG -> {
                Field sumState = aggregate.distinct() ? null : aggregate.stateFields().get(0);
                ArrowType sumType = sumState != null ? sumState.getType() : avgSumType(argType(aggregate));
                yield new AvgAccumulator(sum(aggregate, sumType, argType(aggregate)));
            }
            case MIN, MAX -> minMax(aggregate, aggregate.function() == AggregateFunction.MAX);
            case VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> statistic(aggregate, new VarianceAccumulator(aggregate.function()));
            case COVAR_SAMP, COVAR_POP, CORR, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY ->
                    statistic(aggregate, new CovarianceAccumulator(aggregate.function()));
            case PERCENTILE_CONT, PERCENTILE_DISC -> percentile(aggregate);
            case MODE -> {
                checkSame(aggregate, argType(aggregate));
                yield new ModeAccumulator(argType(aggregate));
            }
            case STRING_AGG -> new StringAggAccumulator((String) aggregate.parameters().get(0), aggregate.orderBy());
            case APPROX_COUNT_DISTINCT -> {
                if (!(aggregate.type() instanceof ArrowType.Int)) {
                    throw unsupported(aggregate);
                }
                yield new ApproxDistinctAccumulator(argType(aggregate));
            }
            case APPROX_QUANTILE -> new ApproxQuantileAccumulator((BigDecimal) aggregate.parameters().get(0), argType(aggregate), aggregate.type());
        };
    }

    /** A DOUBLE statistic of numeric arguments. */
    private static Accumulator statistic(AggregateExpr aggregate, Accumulator accumulator) {
        boolean numeric = aggregate.args().stream().allMatch(arg -> QuiverTypes.isNumeric(arg.type()));
        if (!numeric || !(aggregate.type() instanceof ArrowType.FloatingPoint)) {
            throw unsupported(aggregate);
        }
        return accumulator;
    }

    private static Accumulator percentile(AggregateExpr aggregate) {
        SortKey key = aggregate.orderBy().get(0);
        ArrowType values = key.expr().type();
        ArrowType result = aggregate.type();
        ColumnKind.of(values); // NOT_SUPPORTED for a type the aggregate cannot hold
        // CONT interpolates into DOUBLE, the values' DECIMAL, or TIMESTAMP; other types keep theirs (the lower value)
        boolean interpolatedSelf = values instanceof ArrowType.Decimal || values instanceof ArrowType.FloatingPoint
                || !QuiverTypes.isNumeric(values) && !(values instanceof ArrowType.Date);
        boolean allowed = aggregate.function() == AggregateFunction.PERCENTILE_DISC || result.equals(values) && interpolatedSelf
                || result instanceof ArrowType.FloatingPoint && QuiverTypes.isNumeric(values) && !(values instanceof ArrowType.Decimal)
                || result instanceof ArrowType.Timestamp && (values instanceof ArrowType.Date || values instanceof ArrowType.Timestamp);
        if (aggregate.function() == AggregateFunction.PERCENTILE_DISC) {
            checkSame(aggregate, values);
        }
        if (!allowed) {
            throw unsupported(aggregate);
        }
        return new PercentileAccumulator(aggregate.function(), (BigDecimal) aggregate.parameters().get(0), !key.ascending(), values, result);
    }

    private static void checkSame(AggregateExpr aggregate, ArrowType input) {
        if (!aggregate.type().equals(input)) {
            throw unsupported(aggregate);
        }
    }

    private static ArrowType argType(AggregateExpr aggregate) {
        return aggregate.args().get(0).type();
    }

    private static ArrowType avgSumType(ArrowType argType) {
        if (argType instanceof ArrowType.Decimal decimal) {
            return QuiverTypes.decimal(QuiverTypes.MAX_DECIMAL_PRECISION, decimal.getScale());
        }
        return argType instanceof ArrowType.Int ? QuiverTypes.INT64 : QuiverTypes.FLOAT64;
    }

    /** A sum producing {@code sumType} from values of {@code inputType}. */
    private static Accumulator sum(AggregateExpr aggregate, ArrowType sumType, ArrowType inputType) {
        ColumnKind input = ColumnKind.of(inputType);
        if (sumType instanceof ArrowType.Decimal && inputType instanceof ArrowType.Decimal decimal) {
            return new DecimalSumAccumulator(aggregate.name(), decimal.getScale());
        }
        if (sumType instanceof ArrowType.Int && input.isLong() && input != ColumnKind.BOOLEAN) {
            return new LongSumAccumulator(aggregate.name());
        }
        if (sumType instanceof ArrowType.FloatingPoint && (input == ColumnKind.DOUBLE || input.isLong() || input == ColumnKind.DECIMAL)) {
            return new DoubleSumAccumulator();
        }
        throw unsupported(aggregate);
    }

    private static Accumulator minMax(AggregateExpr aggregate, boolean max) {
        ColumnKind kind = ColumnKind.of(aggregate.type());
        boolean sameDecimalScale = aggregate.type() instanceof ArrowType.Decimal result
                && argType(aggregate) instanceof ArrowType.Decimal arg && result.getScale() == arg.getScale();
        if (!aggregate.type().equals(argType(aggregate)) && !sameDecimalScale) {
            throw unsupported(aggregate);
        }
        return switch (kind) {
            case DOUBLE -> new DoubleMinMaxAccumulator(max);
            case DECIMAL -> new DecimalMinMaxAccumulator(max);
            case STRING -> new StringMinMaxAccumulator(max);
            default -> new LongMinMaxAccumulator(max);
        };
    }

    private static QuiverException unsupported(AggregateExpr aggregate) {
        List<String> args = aggregate.inputs().stream().map(arg -> QuiverTypes.sqlName(arg.type())).toList();
        return new QuiverException(ErrorCode.NOT_SUPPORTED, aggregate.function() + " of " + args
                + " returning " + QuiverTypes.sqlName(aggregate.type()) + " is not supported");
    }
}
