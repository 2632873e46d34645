package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.NotExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.planner.AggregateOperators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Translates the aggregate calls of one Calcite {@link Aggregate} into engine
 * {@link AggregateExpr}s: the function, its arguments over the aggregate's input, its ORDER BY
 * keys and its constant parameters (a quantile's fraction, STRING_AGG's separator, which must be
 * constants of the input).
 *
 * <p>{@code agg(x) FILTER (WHERE f)} becomes {@code agg(CASE WHEN f THEN x END)}: rows failing f
 * become NULL, which every aggregate skips ({@code COUNT(*)} counts a non-NULL constant instead).
 */
final class AggregateCalls {
    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final Map<SqlAggFunction, AggregateFunction> QUIVER_FUNCTIONS = Map.ofEntries(
            Map.entry(AggregateOperators.CORR, AggregateFunction.CORR),
            Map.entry(AggregateOperators.REGR_SLOPE, AggregateFunction.REGR_SLOPE),
            Map.entry(AggregateOperators.REGR_INTERCEPT, AggregateFunction.REGR_INTERCEPT),
            Map.entry(AggregateOperators.REGR_R2, AggregateFunction.REGR_R2),
            Map.entry(AggregateOperators.REGR_AVGX, AggregateFunction.REGR_AVGX),
            Map.entry(AggregateOperators.REGR_AVGY, AggregateFunction.REGR_AVGY),
            Map.entry(AggregateOperators.REGR_SXY, AggregateFunction.REGR_SXY),
            Map.entry(AggregateOperators.MEDIAN, AggregateFunction.PERCENTILE_CONT),
            Map.entry(AggregateOperators.QUANTILE_CONT, AggregateFunction.PERCENTILE_CONT),
            Map.entry(AggregateOperators.QUANTILE_DISC, AggregateFunction.PERCENTILE_DISC),
            Map.entry(AggregateOperators.QUANTILE, AggregateFunction.PERCENTILE_DISC),
            Map.entry(AggregateOperators.APPROX_QUANTILE, AggregateFunction.APPROX_QUANTILE),
            Map.entry(AggregateOperators.APPROX_PERCENTILE, AggregateFunction.APPROX_QUANTILE),
            Map.entry(AggregateOperators.APPROX_MEDIAN, AggregateFunction.APPROX_QUANTILE),
            Map.entry(AggregateOperators.COUNT_IF, AggregateFunction.SUM));

    private final RelNode input;
    private final RexTranslator inputs;
    /** Constant input columns: the fractions and separators Calcite projects below the aggregate. */
    private final Map<RexNode, RexNode> constants;
    /** The constants argument indices past the input's columns refer to (a {@link Window}'s). */
    private final List<RexLiteral> trailingConstants;

    /** The calls of an {@link Aggregate} over {@code input}. */
    AggregateCalls(RelNode input, RexTranslator inputs) {
        this(input, inputs, List.of());
    }

    /**
     * @param input the relation the calls' argument indices refer to: an {@link Aggregate}'s input,
     *     or a window's, whose aggregates over a window translate here too
     * @param trailingConstants what an argument index {@code input columns + i} refers to: a
     *     {@link Window}'s {@code constants}, where Calcite puts an operand it reduced to a constant
     *     (an argument column a filter fixes: {@code sum(x) over () ... where x is null})
     */
    AggregateCalls(RelNode input, RexTranslator inputs, List<RexLiteral> trailingConstants) {
        this.input = requireNonNull(input, "input is null");
        this.inputs = requireNonNull(inputs, "inputs is null");
        this.constants = input.getCluster().getMetadataQuery().getPulledUpPredicates(input).constantMap;
        this.trailingConstants = List.copyOf(requireNonNull(trailingConstants, "trailingConstants is null"));
    }

    /** The engine aggregate of {@code call}, named {@code name}. */
    AggregateExpr translate(AggregateCall call, String name) {
        AggregateFunction function = function(call);
        if (call.getAggregation() == AggregateOperators.COUNT_IF) {
            return countIf(call, name);
        }
        // a GROUP BY's call is marked approximate; a window's (Window.RexWinAggCall) keeps only the operator
        if (function == AggregateFunction.COUNT && (call.isApproximate() || call.getAggregation() == SqlStdOperatorTable.APPROX_COUNT_DISTINCT)) {
            return approxCountDistinct(call, name);
        }
        return switch (function) {
            case PERCENTILE_CONT, PERCENTILE_DISC -> percentile(call, function, name);
            case APPROX_QUANTILE -> approxQuantile(call, name);
            case STRING_AGG -> stringAgg(call, name);
            default -> build(call, function, columns(call.getArgList()), List.of(), List.of(), name);
        };
    }

    private static AggregateFunction function(AggregateCall call) {
        SqlAggFunction operator = call.getAggregation();
        AggregateFunction quiver = QUIVER_FUNCTIONS.get(operator);
        if (quiver != null) {
            return quiver;
        }
        return switch (operator.getKind()) {
            case COUNT -> AggregateFunction.COUNT;
            case SUM, SUM0 -> AggregateFunction.SUM;
            case AVG -> AggregateFunction.AVG;
            // ANY_VALUE may return any of the values: the smallest is the one every run agrees on
            case MIN, ANY_VALUE -> AggregateFunction.MIN;
            case MAX, SINGLE_VALUE -> AggregateFunction.MAX;
            case STDDEV_SAMP -> AggregateFunction.STDDEV_SAMP;
            case STDDEV_POP -> AggregateFunction.STDDEV_POP;
            case VAR_SAMP -> AggregateFunction.VAR_SAMP;
            case VAR_POP -> AggregateFunction.VAR_POP;
            case COVAR_SAMP -> AggregateFunction.COVAR_SAMP;
            case COVAR_POP -> AggregateFunction.COVAR_POP;
            case REGR_SXX -> AggregateFunction.REGR_SXX;
            case REGR_SYY -> AggregateFunction.REGR_SYY;
            case MODE -> AggregateFunction.MODE;
            // STRING_AGG and GROUP_CONCAT reach here as themselves over a window (a GROUP BY gets LISTAGG)
            case LISTAGG, STRING_AGG, GROUP_CONCAT -> AggregateFunction.STRING_AGG;
            case PERCENTILE_CONT -> AggregateFunction.PERCENTILE_CONT;
            case PERCENTILE_DISC -> AggregateFunction.PERCENTILE_DISC;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The aggregate function " + operator.getName() + " is not supported");
        };
    }

    /**
     * PERCENTILE_CONT/DISC(f) WITHIN GROUP (ORDER BY x); MEDIAN(x); QUANTILE_CONT/DISC(x, f), where
     * a negative f counts from the largest value (DuckDB).
     */
    private AggregateExpr percentile(AggregateCall call, AggregateFunction function, String name) {
        String what = call.getAggregation().getName();
        SortKey values;
        BigDecimal fraction;
        if (call.getAggregation() == AggregateOperators.MEDIAN) {
            values = new SortKey(operand(call.getArgList().get(0)), true, false);
            fraction = HALF;
        } else if (call.collation.getFieldCollations().isEmpty()) {
            fraction = fraction(call.getArgList().get(1), what);
            values = new SortKey(operand(call.getArgList().get(0)), fraction.signum() >= 0, fraction.signum() < 0);
            fraction = fraction.abs();
        } else {
            fraction = fraction(call.getArgList().get(0), what);
            values = sortKeys(call).get(0);
        }
        if (fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, what + " needs a fraction between -1 and 1, not " + fraction);
        }
        if (call.isDistinct()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, what + "(DISTINCT ...) is not supported");
        }
        PhysicalExpr filtered = filtered(call, values.expr());
        return new AggregateExpr(function, List.of(), false, name, type(call),
                List.of(new SortKey(filtered, values.ascending(), values.nullsFirst())), List.of(fraction));
    }

    /** {@code APPROX_QUANTILE(x, f)}, {@code APPROX_PERCENTILE(x, f)}: a constant f in [0, 1]; {@code APPROX_MEDIAN(x)}. */
    private AggregateExpr approxQuantile(AggregateCall call, String name) {
        String what = call.getAggregation().getName();
        BigDecimal fraction = call.getAggregation() == AggregateOperators.APPROX_MEDIAN ? HALF : fraction(call.getArgList().get(1), what);
        if (fraction.signum() < 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, what + " needs a fraction between 0 and 1, not " + fraction);
        }
        return build(call, AggregateFunction.APPROX_QUANTILE, columns(call.getArgList().subList(0, 1)), List.of(), List.of(fraction), name);
    }

    /** Calcite's {@code APPROX_COUNT_DISTINCT(x)}, an approximate {@code COUNT(DISTINCT x)}: a HyperLogLog sketch, which distributes as COUNT does. */
    private AggregateExpr approxCountDistinct(AggregateCall call, String name) {
        if (call.getArgList().size() != 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "APPROX_COUNT_DISTINCT takes one argument, not " + call.getArgList().size());
        }
        List<PhysicalExpr> args = columns(call.getArgList());
        List<PhysicalExpr> filtered = args.stream().map(arg -> filtered(call, arg)).toList();
        return new AggregateExpr(AggregateFunction.APPROX_COUNT_DISTINCT, filtered, false, name, type(call));
    }

    /** {@code COUNT_IF(c)} as {@code SUM(CASE WHEN c THEN 1 WHEN NOT c THEN 0 END)}: NULL where every c is NULL, as in DuckDB. */
    private AggregateExpr countIf(AggregateCall call, String name) {
        PhysicalExpr condition = operand(call.getArgList().get(0));
        PhysicalExpr oneOrZero = new CaseExpr(List.of(
                new CaseExpr.WhenThen(condition, new LiteralExpr(1L, QuiverTypes.INT64)),
                new CaseExpr.WhenThen(new NotExpr(condition), new LiteralExpr(0L, QuiverTypes.INT64))), Optional.empty(), QuiverTypes.INT64);
        return build(call, AggregateFunction.SUM, List.of(oneOrZero), List.of(), List.of(), name);
    }

    /** LISTAGG (also STRING_AGG and GROUP_CONCAT): the value, an optional constant separator (default ','), ORDER BY keys. */
    private AggregateExpr stringAgg(AggregateCall call, String name) {
        List<Integer> args = call.getArgList();
        String separator = args.size() > 1 ? constant(args.get(1), "The separator of " + call.getAggregation().getName()).getValueAs(String.class) : ",";
        List<SortKey> orderBy = sortKeys(call);
        PhysicalExpr value = operand(args.get(0));
        if (call.isDistinct() && orderBy.stream().anyMatch(key -> !key.expr().equals(value))) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "STRING_AGG(DISTINCT x ORDER BY y) needs y to be x");
        }
        return build(call, AggregateFunction.STRING_AGG, List.of(value), orderBy, List.of(separator == null ? "" : separator), name);
    }

    private AggregateExpr build(AggregateCall call, AggregateFunction function, List<PhysicalExpr> args, List<SortKey> orderBy,
            List<Object> parameters, String name) {
        List<PhysicalExpr> filtered = new ArrayList<>();
        if (call.filterArg >= 0 && args.isEmpty()) {
            filtered.add(filtered(call, new LiteralExpr(1, QuiverTypes.INT32)));
        } else {
            args.forEach(arg -> filtered.add(filtered(call, arg)));
        }
        return new AggregateExpr(function, filtered, call.isDistinct(), name, type(call), orderBy, parameters);
    }

    /** {@code CASE WHEN filter THEN value END} for a call with a FILTER, else {@code value}. */
    private PhysicalExpr filtered(AggregateCall call, PhysicalExpr value) {
        if (call.filterArg < 0) {
            return value;
        }
        PhysicalExpr condition = operand(call.filterArg);
        return new CaseExpr(List.of(new CaseExpr.WhenThen(condition, value)), Optional.empty(), value.type());
    }

    private List<PhysicalExpr> columns(List<Integer> args) {
        return args.stream().map(this::operand).toList();
    }

    /** The input column at {@code index}, or the trailing constant it refers to. */
    PhysicalExpr operand(int index) {
        int inputFields = input.getRowType().getFieldCount();
        if (index < inputFields) {
            return inputs.column(index);
        }
        RexLiteral literal = trailingConstants.get(index - inputFields);
        ArrowType type = TypeMapping.toArrow(literal.getType());
        return new LiteralExpr(Literals.value(literal, type), type);
    }

    private List<SortKey> sortKeys(AggregateCall call) {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation collation : call.collation.getFieldCollations()) {
            boolean ascending = !collation.getDirection().isDescending();
            boolean nullsFirst = switch (collation.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                // Calcite's default (NullCollation.HIGH), as in ORDER BY: NULL sorts as the largest value
                case UNSPECIFIED -> !ascending;
            };
            keys.add(new SortKey(operand(collation.getFieldIndex()), ascending, nullsFirst));
        }
        return keys;
    }

    private BigDecimal fraction(int arg, String what) {
        BigDecimal fraction = constant(arg, "The fraction of " + what).getValueAs(BigDecimal.class);
        if (fraction == null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The fraction of " + what + " must not be NULL");
        }
        return fraction.stripTrailingZeros();
    }

    private RexLiteral constant(int arg, String what) {
        int inputFields = input.getRowType().getFieldCount();
        if (arg >= inputFields) {
            return trailingConstants.get(arg - inputFields);
        }
        RexNode ref = RexInputRef.of(arg, input.getRowType());
        if (constants.get(ref) instanceof RexLiteral literal) {
            return literal;
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, what + " must be a constant");
    }

    private static ArrowType type(AggregateCall call) {
        return TypeMapping.toArrow(call.getType());
    }
}
