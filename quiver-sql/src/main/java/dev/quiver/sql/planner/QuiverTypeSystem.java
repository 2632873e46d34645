package dev.quiver.sql.planner;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's type rules with Quiver's limits: decimals up to precision and scale 38 (the engine's
 * 128-bit decimals), SUM of an exact integer type is BIGINT, SUM of DECIMAL(p,s) is DECIMAL(38,s),
 * timestamps carry microseconds, AVG of a decimal keeps its type (DECIMAL(p,s) stays DECIMAL(p,s), Calcite's default) and AVG of an
 * exact integer type is DOUBLE, as in Trino, Spark and DuckDB (Calcite's default would truncate).
 */
public final class QuiverTypeSystem extends RelDataTypeSystemImpl {
    public static final QuiverTypeSystem INSTANCE = new QuiverTypeSystem();

    private static final int MAX_DECIMAL = 38;
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
            return typeFactory.createTypeWithNullability(
                    typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, argumentType.getScale()), argumentType.isNullable());
        }
        return super.deriveSumType(typeFactory, argumentType);
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (SqlTypeUtil.isExactNumeric(argumentType) && !SqlTypeUtil.isDecimal(argumentType)) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
        }
        return super.deriveAvgAggType(typeFactory, argumentType);
    }
}
