package dev.quiver.sql.planner;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's type rules with Quiver's limits and Spark's decimal rules (docs/sql.md lists them):
 * decimals up to precision and scale 38 (the engine's 128-bit decimals); timestamps carry
 * microseconds; SUM of an exact integer type is BIGINT and of DECIMAL(p,s) DECIMAL(min(38, p + 10), s);
 * AVG of DECIMAL(p,s) adds 4 decimals, AVG of an exact integer type is DOUBLE (as in Trino, Spark
 * and DuckDB); a quotient keeps scale max(6, s1 + p2 + 1) and a product s1 + s2, and past 38
 * digits either gives up decimals (never below 6) rather than integer digits, as in Spark and
 * Hive — so that a ratio of two sums, and that ratio times 100, keep the digits a user expects.
 */
public final class QuiverTypeSystem extends RelDataTypeSystemImpl {
    public static final QuiverTypeSystem INSTANCE = new QuiverTypeSystem();

    private static final int MAX_DECIMAL = 38;
    /** The fewest decimals a product or quotient keeps when its precision is cut to 38 (Spark's, Hive's and SQL Server's 6). */
    private static final int MIN_ADJUSTED_SCALE = 6;
    /** Digits SUM adds to its argument's precision (Spark's 10: room for 10^10 rows of the largest value). */
    private static final int SUM_EXTRA_DIGITS = 10;
    /** Digits AVG adds to its argument's scale (and precision), as in Spark. */
    private static final int AVG_EXTRA_DIGITS = 4;
    /** Microseconds, as the engine stores timestamps. */
    static final int TIMESTAMP_PRECISION = 6;

    private QuiverTypeSystem() {}

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL;
            case TIMESTAMP -> TIMESTAMP_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }

    /** {@code CAST(x AS TIMESTAMP)} keeps microseconds, as in DuckDB and PostgreSQL (Calcite's default precision is 0). */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.TIMESTAMP ? TIMESTAMP_PRECISION : super.getDefaultPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL : super.getMaxScale(typeName);
    }

    /**
     * Branches of CASE and UNION inputs of different CHAR lengths become VARCHAR, so that
     * {@code CASE WHEN .. THEN 'big' ELSE 'other' END} yields {@code 'big'}, not the padded
     * {@code 'big  '} of a CHAR(5) — as in Trino, Spark and DuckDB.
     */
    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (SqlTypeUtil.isExactNumeric(argumentType) && !SqlTypeUtil.isDecimal(argumentType)) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
        }
        if (SqlTypeUtil.isDecimal(argumentType)) {
            int precision = Math.min(MAX_DECIMAL, argumentType.getPrecision() + SUM_EXTRA_DIGITS);
            return decimal(typeFactory, precision, argumentType.getScale(), argumentType.isNullable());
        }
        return super.deriveSumType(typeFactory, argumentType);
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (SqlTypeUtil.isExactNumeric(argumentType) && !SqlTypeUtil.isDecimal(argumentType)) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
        }
        if (SqlTypeUtil.isDecimal(argumentType)) {
            // an average is no larger than the largest value: its integer digits stay, the decimals grow
            int precision = Math.min(MAX_DECIMAL, argumentType.getPrecision() + AVG_EXTRA_DIGITS);
            int integerDigits = argumentType.getPrecision() - argumentType.getScale();
            int scale = Math.min(argumentType.getScale() + AVG_EXTRA_DIGITS, precision - integerDigits);
            return decimal(typeFactory, precision, scale, argumentType.isNullable());
        }
        return super.deriveAvgAggType(typeFactory, argumentType);
    }

    /**
     * Spark's rule: the quotient of DECIMAL(p1,s1) and DECIMAL(p2,s2) (an integer type counts as
     * DECIMAL(10,0) or DECIMAL(19,0)) has {@code p1 - s1 + s2} integer digits and scale
     * {@code max(6, s1 + p2 + 1)}, then {@link #fitted}. Calcite's own rule gives
     * DECIMAL(15,2) / DECIMAL(15,2) scale 6.
     */
    @Override
    public @Nullable RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType type1, RelDataType type2) {
        if (!isDecimalArithmetic(type1, type2)) {
            return null;
        }
        RelDataType dividend = asDecimal(typeFactory, type1);
        RelDataType divisor = asDecimal(typeFactory, type2);
        int integerDigits = dividend.getPrecision() - dividend.getScale() + divisor.getScale();
        int scale = Math.max(MIN_ADJUSTED_SCALE, dividend.getScale() + divisor.getPrecision() + 1);
        return fitted(typeFactory, integerDigits, scale, type1.isNullable() || type2.isNullable());
    }

    /**
     * The exact product's type, DECIMAL(p1 + p2, s1 + s2), then {@link #fitted}: past 38 digits
     * the scale gives way, not the integer digits (Calcite would keep the scale and leave
     * {@code x / y * 100} with decimals it cannot know, e.g. 98.599200 for 98.599210).
     */
    @Override
    public @Nullable RelDataType deriveDecimalMultiplyType(RelDataTypeFactory typeFactory, RelDataType type1, RelDataType type2) {
        if (!isDecimalArithmetic(type1, type2)) {
            return null;
        }
        RelDataType left = asDecimal(typeFactory, type1);
        RelDataType right = asDecimal(typeFactory, type2);
        int scale = left.getScale() + right.getScale();
        int integerDigits = left.getPrecision() + right.getPrecision() - scale;
        return fitted(typeFactory, integerDigits, scale, type1.isNullable() || type2.isNullable());
    }

    /**
     * A decimal of {@code integerDigits + scale} digits; past 38 the integer digits are kept and
     * the scale shrinks to what is left, but not below 6 (Spark's and Hive's adjustment). A value
     * too large for what remains is an error, never a wrong number.
     */
    private static RelDataType fitted(RelDataTypeFactory typeFactory, int integerDigits, int scale, boolean nullable) {
        if (integerDigits + scale <= MAX_DECIMAL) {
            return decimal(typeFactory, integerDigits + scale, scale, nullable);
        }
        return decimal(typeFactory, MAX_DECIMAL, Math.max(MAX_DECIMAL - integerDigits, Math.min(scale, MIN_ADJUSTED_SCALE)), nullable);
    }

    private static boolean isDecimalArithmetic(RelDataType type1, RelDataType type2) {
        return SqlTypeUtil.isExactNumeric(type1) && SqlTypeUtil.isExactNumeric(type2)
                && (SqlTypeUtil.isDecimal(type1) || SqlTypeUtil.isDecimal(type2));
    }

    /** An integer type as the decimal that holds it (INTEGER is DECIMAL(10,0)). */
    private static RelDataType asDecimal(RelDataTypeFactory typeFactory, RelDataType type) {
        return RelDataTypeFactoryImpl.isJavaType(type) ? typeFactory.decimalOf(type) : type;
    }

    private static RelDataType decimal(RelDataTypeFactory typeFactory, int precision, int scale, boolean nullable) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, scale), nullable);
    }
}
