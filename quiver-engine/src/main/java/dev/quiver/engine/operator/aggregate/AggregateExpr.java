package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One aggregate call, e.g. {@code SUM(l_extendedprice * (1 - l_discount)) AS revenue}.
 *
 * @param function the function
 * @param args its arguments, evaluated over the input (empty for {@code COUNT(*)})
 * @param distinct whether it aggregates distinct argument values (only in SINGLE mode)
 * @param name the output column name
 * @param type the result type, chosen by the SQL layer (docs/sql.md: SUM of DECIMAL(p,s) is
 *     DECIMAL(min(38, p + 10), s), checked when written; AVG of a decimal is rounded HALF_UP to
 *     the result's scale; COUNT is BIGINT)
 */
public record AggregateExpr(AggregateFunction function, List<PhysicalExpr> args, boolean distinct, String name, ArrowType type) {
    public AggregateExpr {
        requireNonNull(function, "function is null");
        args = List.copyOf(requireNonNull(args, "args is null"));
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if (args.isEmpty() && function != AggregateFunction.COUNT) {
            throw new IllegalArgumentException(function + " needs an argument");
        }
    }

    /**
     * The columns a PARTIAL aggregate emits for this aggregate and a FINAL aggregate reads back:
     * COUNT: {@code name[count]} BIGINT; SUM: {@code name[sum]} of the result type; AVG:
     * {@code name[sum]} (DECIMAL(38, s) of a DECIMAL(p, s) argument, DOUBLE of a DOUBLE, BIGINT of an
     * integer) and {@code name[count]} BIGINT; MIN/MAX: {@code name[min]}/{@code name[max]} of the
     * result type.
     */
    public List<Field> stateFields() {
        if (distinct) {
            throw new IllegalStateException("DISTINCT aggregates run in SINGLE mode and have no partial state: " + display());
        }
        return switch (function) {
            case COUNT -> List.of(QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false));
            case SUM -> List.of(QuiverTypes.field(name + "[sum]", type, true));
            case MIN -> List.of(QuiverTypes.field(name + "[min]", type, true));
            case MAX -> List.of(QuiverTypes.field(name + "[max]", type, true));
            case AVG -> List.of(QuiverTypes.field(name + "[sum]", avgSumType(args.get(0).type()), true),
                    QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false));
        };
    }

    /** The output column of a FINAL or SINGLE aggregate. */
    public Field outputField() {
        return QuiverTypes.field(name, type, function != AggregateFunction.COUNT);
    }

    private static ArrowType avgSumType(ArrowType argType) {
        if (argType instanceof ArrowType.Decimal decimal) {
            return QuiverTypes.decimal(QuiverTypes.MAX_DECIMAL_PRECISION, decimal.getScale());
        }
        if (argType instanceof ArrowType.Int) {
            return QuiverTypes.INT64;
        }
        return QuiverTypes.FLOAT64;
    }

    public String display() {
        return function + "(" + (distinct ? "DISTINCT " : "")
                + (args.isEmpty() ? "*" : args.stream().map(PhysicalExpr::display).collect(Collectors.joining(", "))) + ")";
    }
}
