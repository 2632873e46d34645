package dev.quiver.sql.planner;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.util.Optionality;

/**
 * The aggregate functions Quiver adds to (or types differently from) Calcite's standard table,
 * with DuckDB's names and result types: the variances, covariances and regressions return DOUBLE
 * for every numeric argument (Calcite would keep a DECIMAL or an integer type); {@code MEDIAN},
 * {@code QUANTILE_CONT}/{@code QUANTILE_DISC}/{@code QUANTILE} and Quiver's own
 * {@code PERCENTILE_CONT}/{@code PERCENTILE_DISC} follow DuckDB's quantile types
 * ({@link #continuousType}); {@code COUNT_IF} and {@code ARBITRARY} are DuckDB's names, as are
 * {@code APPROX_QUANTILE} (with Trino's {@code APPROX_PERCENTILE} and DataFusion's
 * {@code APPROX_MEDIAN}).
 *
 * <p>{@link #table(SqlOperatorTable)} puts these in front of a base table and hides the base's
 * functions of the same names.
 */
public final class AggregateOperators {
    /** DOUBLE, NULL over no rows. */
    private static final SqlReturnTypeInference DOUBLE_NULLABLE = ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(
            (binding, type) -> binding.getTypeFactory().createTypeWithNullability(type, true));

    public static final SqlAggFunction STDDEV = statistic("STDDEV", SqlKind.STDDEV_SAMP);
    public static final SqlAggFunction STDDEV_SAMP = statistic("STDDEV_SAMP", SqlKind.STDDEV_SAMP);
    public static final SqlAggFunction STDDEV_POP = statistic("STDDEV_POP", SqlKind.STDDEV_POP);
    public static final SqlAggFunction VARIANCE = statistic("VARIANCE", SqlKind.VAR_SAMP);
    public static final SqlAggFunction VAR_SAMP = statistic("VAR_SAMP", SqlKind.VAR_SAMP);
    public static final SqlAggFunction VAR_POP = statistic("VAR_POP", SqlKind.VAR_POP);
    public static final SqlAggFunction COVAR_SAMP = pairStatistic("COVAR_SAMP", SqlKind.COVAR_SAMP);
    public static final SqlAggFunction COVAR_POP = pairStatistic("COVAR_POP", SqlKind.COVAR_POP);
    public static final SqlAggFunction CORR = pairStatistic("CORR", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_SLOPE = pairStatistic("REGR_SLOPE", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_INTERCEPT = pairStatistic("REGR_INTERCEPT", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_R2 = pairStatistic("REGR_R2", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_AVGX = pairStatistic("REGR_AVGX", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_AVGY = pairStatistic("REGR_AVGY", SqlKind.OTHER_FUNCTION);
    public static final SqlAggFunction REGR_SXX = pairStatistic("REGR_SXX", SqlKind.REGR_SXX);
    public static final SqlAggFunction REGR_SYY = pairStatistic("REGR_SYY", SqlKind.REGR_SYY);
    public static final SqlAggFunction REGR_SXY = pairStatistic("REGR_SXY", SqlKind.OTHER_FUNCTION);

    /** {@code MEDIAN(x)}: {@code QUANTILE_CONT(x, 0.5)}. */
    public static final SqlAggFunction MEDIAN = SqlBasicAggFunction.create("MEDIAN", SqlKind.OTHER_FUNCTION,
            binding -> continuousType(binding.getTypeFactory(), binding.getOperandType(0)), OperandTypes.ANY);
    /** {@code QUANTILE_CONT(x, f)}: a constant f in [-1, 1]; a negative f counts from the largest value. */
    public static final SqlAggFunction QUANTILE_CONT = SqlBasicAggFunction.create("QUANTILE_CONT", SqlKind.OTHER_FUNCTION,
            binding -> continuousType(binding.getTypeFactory(), binding.getOperandType(0)), OperandTypes.ANY_NUMERIC);
    public static final SqlAggFunction QUANTILE_DISC = SqlBasicAggFunction.create("QUANTILE_DISC", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_FORCE_NULLABLE, OperandTypes.ANY_NUMERIC);
    /** DuckDB's {@code QUANTILE}: {@code QUANTILE_DISC}. */
    public static final SqlAggFunction QUANTILE = SqlBasicAggFunction.create("QUANTILE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_FORCE_NULLABLE, OperandTypes.ANY_NUMERIC);
    /** {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)}, typed as DuckDB types it (Calcite's is always DOUBLE). */
    public static final SqlAggFunction PERCENTILE_CONT = SqlBasicAggFunction.create(SqlKind.PERCENTILE_CONT,
                    binding -> continuousType(binding.getTypeFactory(), binding.getCollationType()), OperandTypes.UNIT_INTERVAL_NUMERIC_LITERAL)
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withPercentile(true);
    public static final SqlAggFunction PERCENTILE_DISC = SqlBasicAggFunction.create(SqlKind.PERCENTILE_DISC,
                    binding -> binding.getTypeFactory().createTypeWithNullability(binding.getCollationType(), true),
                    OperandTypes.UNIT_INTERVAL_NUMERIC_LITERAL)
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withPercentile(true);

    /**
     * DuckDB's {@code APPROX_QUANTILE(x, f)}: a constant f in [0, 1], estimated with a t-digest; of
     * x's type (a number, a date or a timestamp), as in DuckDB.
     */
    public static final SqlAggFunction APPROX_QUANTILE = SqlBasicAggFunction.create("APPROX_QUANTILE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_FORCE_NULLABLE, OperandTypes.ANY_NUMERIC);
    /** Trino's {@code APPROX_PERCENTILE(x, f)}: {@code APPROX_QUANTILE}. */
    public static final SqlAggFunction APPROX_PERCENTILE = SqlBasicAggFunction.create("APPROX_PERCENTILE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_FORCE_NULLABLE, OperandTypes.ANY_NUMERIC);
    /** DataFusion's {@code APPROX_MEDIAN(x)}: {@code APPROX_QUANTILE(x, 0.5)}. */
    public static final SqlAggFunction APPROX_MEDIAN = SqlBasicAggFunction.create("APPROX_MEDIAN", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_FORCE_NULLABLE, OperandTypes.ANY);

    /**
     * DuckDB's {@code COUNT_IF(condition)}: the rows where the condition is TRUE, skipping those where
     * it is NULL as SUM does ({@code SUM(CASE WHEN c THEN 1 WHEN NOT c THEN 0 END)}: NULL over no
     * rows, or only NULLs).
     */
    public static final SqlAggFunction COUNT_IF = SqlBasicAggFunction.create("COUNT_IF", SqlKind.OTHER_FUNCTION,
            ReturnTypes.BIGINT_FORCE_NULLABLE, OperandTypes.BOOLEAN);
    /** DuckDB's {@code ARBITRARY}: {@code ANY_VALUE}. */
    public static final SqlAggFunction ARBITRARY = SqlBasicAggFunction.create("ARBITRARY", SqlKind.ANY_VALUE,
            ReturnTypes.ARG0_NULLABLE_IF_EMPTY, OperandTypes.ANY);

    private static final List<SqlOperator> OPERATORS = List.of(STDDEV, STDDEV_SAMP, STDDEV_POP, VARIANCE, VAR_SAMP, VAR_POP,
            COVAR_SAMP, COVAR_POP, CORR, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY,
            MEDIAN, QUANTILE_CONT, QUANTILE_DISC, QUANTILE, PERCENTILE_CONT, PERCENTILE_DISC, APPROX_QUANTILE, APPROX_PERCENTILE,
            APPROX_MEDIAN, COUNT_IF, ARBITRARY,
            SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR, SqlLibraryOperators.STRING_AGG, SqlLibraryOperators.GROUP_CONCAT);

    private static final Set<String> NAMES = Set.copyOf(OPERATORS.stream().map(SqlOperator::getName).toList());

    private AggregateOperators() {}

    /** These aggregates, then {@code base} without its functions of the same names. */
    public static SqlOperatorTable table(SqlOperatorTable base) {
        return SqlOperatorTables.chain(SqlOperatorTables.of(OPERATORS), new Hiding(base));
    }

    /**
     * Prepares a parsed statement for validation, changing the tree in place:
     * <ul>
     * <li>the operators the parser assigns without a table lookup (Calcite's
     *     {@code PERCENTILE_CONT}/{@code PERCENTILE_DISC} of {@code WITHIN GROUP}) become Quiver's, so
     *     that they validate with Quiver's types;</li>
     * <li>in {@code STRING_AGG(s, sep ORDER BY k) FILTER (WHERE c)} the value becomes
     *     {@code CASE WHEN c THEN s END}: the same rows (the filter still applies), but Calcite's type
     *     derivation of a FILTER over an ordered call stops at the nullable first operand instead of
     *     failing on the ORDER BY list (it scans the operands for a nullable one).</li>
     * </ul>
     */
    static SqlNode resolveParsed(SqlNode parsed) {
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlBasicCall basic) {
                    if (basic.getOperator() == SqlStdOperatorTable.PERCENTILE_CONT) {
                        basic.setOperator(PERCENTILE_CONT);
                    } else if (basic.getOperator() == SqlStdOperatorTable.PERCENTILE_DISC) {
                        basic.setOperator(PERCENTILE_DISC);
                    } else if (basic.getKind() == SqlKind.FILTER && basic.operand(0) instanceof SqlBasicCall aggregate
                            && aggregate.getOperator().getSyntax() == SqlSyntax.ORDERED_FUNCTION && aggregate.operandCount() > 0) {
                        SqlNode condition = basic.operand(1).clone(basic.operand(1).getParserPosition());
                        SqlNode value = aggregate.operand(0);
                        aggregate.setOperand(0, SqlCase.createSwitched(value.getParserPosition(), null, SqlNodeList.of(condition),
                                SqlNodeList.of(value), SqlLiteral.createNull(value.getParserPosition())));
                    }
                }
                return super.visit(call);
            }
        });
        return parsed;
    }

    /**
     * DuckDB's type of a continuous quantile of {@code values}: DOUBLE for integers and DOUBLE, the
     * same DECIMAL for a DECIMAL, TIMESTAMP for DATE and TIMESTAMP; other types (VARCHAR, BOOLEAN)
     * keep their type and take the lower of the two middle values. Always nullable.
     */
    static RelDataType continuousType(RelDataTypeFactory types, RelDataType values) {
        RelDataType type;
        if (SqlTypeUtil.isDecimal(values)) {
            type = values;
        } else if (SqlTypeUtil.isNumeric(values)) {
            type = types.createSqlType(SqlTypeName.DOUBLE);
        } else if (values.getSqlTypeName() == SqlTypeName.DATE || values.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            type = types.createSqlType(SqlTypeName.TIMESTAMP, QuiverTypeSystem.TIMESTAMP_PRECISION);
        } else {
            type = values;
        }
        return types.createTypeWithNullability(type, true);
    }

    private static SqlAggFunction statistic(String name, SqlKind kind) {
        return SqlBasicAggFunction.create(name, kind, DOUBLE_NULLABLE, OperandTypes.NUMERIC);
    }

    private static SqlAggFunction pairStatistic(String name, SqlKind kind) {
        return SqlBasicAggFunction.create(name, kind, DOUBLE_NULLABLE, OperandTypes.NUMERIC_NUMERIC);
    }

    /** A table without the functions whose names {@link AggregateOperators} defines. */
    private record Hiding(SqlOperatorTable base) implements SqlOperatorTable {
        @Override
        public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
                List<SqlOperator> operators, SqlNameMatcher matcher) {
            if (name.isSimple() && NAMES.stream().anyMatch(n -> matcher.matches(n, name.getSimple()))) {
                return;
            }
            base.lookupOperatorOverloads(name, category, syntax, operators, matcher);
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            return base.getOperatorList().stream().filter(op -> !NAMES.contains(op.getName())).toList();
        }
    }
}
