package dev.quiver.engine.operator.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One aggregate call, e.g. {@code SUM(l_extendedprice * (1 - l_discount)) AS revenue}.
 *
 * @param function the function
 * @param args its arguments, evaluated over the input (empty for {@code COUNT(*)} and the
 *     percentiles, whose values are their ORDER BY key)
 * @param distinct whether it aggregates distinct values of its first argument (SINGLE mode only)
 * @param name the output column name
 * @param type the result type, chosen by the SQL layer (docs/sql.md: SUM of DECIMAL(p,s) is
 *     DECIMAL(min(38, p + 10), s), checked when written; AVG of a decimal is rounded HALF_UP to
 *     the result's scale; COUNT is BIGINT; the variances, covariances and regressions DOUBLE)
 * @param orderBy the ORDER BY (or WITHIN GROUP) keys of an ordered aggregate, evaluated over the
 *     input: STRING_AGG's order, a percentile's values and their direction; empty for the others
 * @param parameters constants of the call: a percentile's fraction (a BigDecimal in [0, 1]),
 *     STRING_AGG's separator (a String); empty for the others
 */
public record AggregateExpr(AggregateFunction function, List<PhysicalExpr> args, boolean distinct, String name, ArrowType type,
        List<SortKey> orderBy, List<Object> parameters) {
    public AggregateExpr {
        requireNonNull(function, "function is null");
        args = List.copyOf(requireNonNull(args, "args is null"));
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        orderBy = List.copyOf(requireNonNull(orderBy, "orderBy is null"));
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        if (args.size() < function.minArgs() || args.size() > function.maxArgs()) {
            throw planError(function + " takes " + (function.minArgs() == function.maxArgs() ? function.minArgs()
                    : function.minArgs() + " or more") + " arguments, not " + args.size());
        }
        checkShape(function, args, distinct, orderBy, parameters);
    }

    /** An aggregate without ORDER BY or parameters. */
    public AggregateExpr(AggregateFunction function, List<PhysicalExpr> args, boolean distinct, String name, ArrowType type) {
        this(function, args, distinct, name, type, List.of(), List.of());
    }

    private static void checkShape(AggregateFunction function, List<PhysicalExpr> args, boolean distinct, List<SortKey> orderBy,
            List<Object> parameters) {
        switch (function) {
            case PERCENTILE_CONT, PERCENTILE_DISC -> {
                if (orderBy.size() != 1 || parameters.size() != 1 || !(parameters.get(0) instanceof BigDecimal fraction)) {
                    throw planError(function + " takes one ORDER BY key and a fraction, not " + orderBy + " and " + parameters);
                }
                checkFraction(function, fraction);
            }
            case APPROX_QUANTILE -> {
                if (!orderBy.isEmpty() || parameters.size() != 1 || !(parameters.get(0) instanceof BigDecimal fraction)) {
                    throw planError(function + " takes a fraction and no ORDER BY keys, not " + orderBy + " and " + parameters);
                }
                checkFraction(function, fraction);
            }
            case STRING_AGG -> {
                if (parameters.size() != 1 || !(parameters.get(0) instanceof String)) {
                    throw planError("STRING_AGG takes a separator string, not " + parameters);
                }
                if (!(args.get(0).type() instanceof ArrowType.Utf8)) {
                    throw new QuiverException(ErrorCode.TYPE_MISMATCH, "STRING_AGG needs VARCHAR values, not " + QuiverTypes.sqlName(args.get(0).type()));
                }
            }
            default -> {
                if (!orderBy.isEmpty() || !parameters.isEmpty()) {
                    throw planError(function + " takes no ORDER BY keys or parameters");
                }
            }
        }
        if (distinct && args.isEmpty()) {
            throw planError("DISTINCT needs an argument: " + function);
        }
    }

    private static void checkFraction(AggregateFunction function, BigDecimal fraction) {
        if (fraction.signum() < 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + " needs a fraction between 0 and 1, not " + fraction);
        }
    }

    private static QuiverException planError(String message) {
        return PlanChecks.planError("AggregateExpr", message);
    }

    /** The expressions the aggregate evaluates over each input batch: the arguments, then the ORDER BY keys. */
    public List<PhysicalExpr> inputs() {
        if (orderBy.isEmpty()) {
            return args;
        }
        List<PhysicalExpr> inputs = new ArrayList<>(args);
        orderBy.forEach(key -> inputs.add(key.expr()));
        return inputs;
    }

    /** Whether the aggregate has a partial state, so that it can run as PARTIAL and FINAL steps. */
    public boolean decomposable() {
        return !distinct && !function.holistic();
    }

    /**
     * The columns a PARTIAL aggregate emits for this aggregate and a FINAL aggregate reads back:
     * COUNT: {@code name[count]} BIGINT; SUM: {@code name[sum]} of the result type; AVG:
     * {@code name[sum]} (DECIMAL(38, s) of a DECIMAL(p, s) argument, DOUBLE of a DOUBLE, BIGINT of an
     * integer) and {@code name[count]} BIGINT; MIN/MAX: {@code name[min]}/{@code name[max]} of the
     * result type; the variances: {@code name[count]} BIGINT, {@code name[mean]} and {@code name[m2]}
     * DOUBLE (the sum of squared deviations); the covariances, CORR and the regressions:
     * {@code name[count]}, then DOUBLEs {@code [mean_y]}, {@code [mean_x]}, {@code [m2_y]},
     * {@code [m2_x]} and {@code [c_xy]} (the sum of products of deviations); the sketches
     * (APPROX_COUNT_DISTINCT, APPROX_QUANTILE): {@code name[sketch]} VARBINARY, the serialized sketch.
     */
    public List<Field> stateFields() {
        if (!decomposable()) {
            throw new IllegalStateException(display() + " has no partial state: it runs in SINGLE mode");
        }
        return switch (function) {
            case COUNT -> List.of(QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false));
            case SUM -> List.of(QuiverTypes.field(name + "[sum]", type, true));
            case MIN -> List.of(QuiverTypes.field(name + "[min]", type, true));
            case MAX -> List.of(QuiverTypes.field(name + "[max]", type, true));
            case AVG -> List.of(QuiverTypes.field(name + "[sum]", avgSumType(args.get(0).type()), true),
                    QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false));
            case VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> List.of(
                    QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false),
                    QuiverTypes.field(name + "[mean]", QuiverTypes.FLOAT64, false),
                    QuiverTypes.field(name + "[m2]", QuiverTypes.FLOAT64, false));
            case COVAR_SAMP, COVAR_POP, CORR, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY -> List.of(
                    QuiverTypes.field(name + "[count]", QuiverTypes.INT64, false),
                    QuiverTypes.field(name + "[mean_y]", QuiverTypes.FLOAT64, false),
                    QuiverTypes.field(name + "[mean_x]", QuiverTypes.FLOAT64, false),
                    QuiverTypes.field(name + "[m2_y]", QuiverTypes.FLOAT64, false),
                    QuiverTypes.field(name + "[m2_x]", QuiverTypes.FLOAT64, false),
                    QuiverTypes.field(name + "[c_xy]", QuiverTypes.FLOAT64, false));
            case APPROX_COUNT_DISTINCT, APPROX_QUANTILE -> List.of(QuiverTypes.field(name + "[sketch]", ArrowType.Binary.INSTANCE, false));
            case PERCENTILE_CONT, PERCENTILE_DISC, MODE, STRING_AGG -> throw new IllegalStateException(function + " is holistic");
        };
    }

    /** The output column of a FINAL or SINGLE aggregate. */
    public Field outputField() {
        return QuiverTypes.field(name, type, function != AggregateFunction.COUNT && function != AggregateFunction.APPROX_COUNT_DISTINCT);
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

    /** E.g. {@code COUNT(DISTINCT x@1)}, {@code STRING_AGG(s@2, ',' ORDER BY k@0 ASC NULLS LAST)}, {@code PERCENTILE_CONT(0.5 ORDER BY x@1 ASC NULLS LAST)}. */
    public String display() {
        List<String> parts = new ArrayList<>();
        args.forEach(arg -> parts.add(arg.display()));
        parameters.forEach(p -> parts.add(p instanceof String s ? "'" + s + "'" : p.toString()));
        String inside = parts.isEmpty() && orderBy.isEmpty() ? "*" : String.join(", ", parts);
        if (!orderBy.isEmpty()) {
            inside += (inside.isEmpty() ? "" : " ") + "ORDER BY " + orderBy.stream().map(SortKey::display).collect(Collectors.joining(", "));
        }
        return function + "(" + (distinct ? "DISTINCT " : "") + inside + ")";
    }
}
