package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Chooses the accumulator for an aggregate from its function, argument type and result type. */
final class Accumulators {
    private Accumulators() {}

    static Accumulator create(AggregateExpr aggregate, AggregateMode mode, BufferAllocator allocator) {
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
        };
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
        List<String> args = aggregate.args().stream().map(arg -> QuiverTypes.sqlName(arg.type())).toList();
        return new QuiverException(ErrorCode.NOT_SUPPORTED, aggregate.function() + " of " + args
                + " returning " + QuiverTypes.sqlName(aggregate.type()) + " is not supported");
    }
}
