package dev.quiver.sql.planner;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Implicit casts only where they are unsurprising: a string compared with a date, timestamp,
 * number or boolean ({@code o_orderdate >= '1995-01-01'}) becomes that type, a date compared with
 * a timestamp becomes a timestamp, the branches of CASE, IN lists and set operations get a common
 * type, and an operand of {@code ||} that is not a string becomes VARCHAR. Arithmetic and other
 * function arguments are not coerced, so {@code 'a' + 1} or {@code SUM(varchar)} fail while planning (TYPE_MISMATCH) instead
 * of as casts that fail while running.
 */
final class ComparisonCoercion extends TypeCoercionImpl {
    ComparisonCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        // Comparable types (numbers of any kind, dates with dates) need no cast; only strings
        // against another type do. This covers BETWEEN's three operands too.
        boolean anyCharacter = false;
        boolean anyOther = false;
        boolean anyDate = false;
        RelDataType timestamp = null;
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType type = binding.getOperandType(i);
            if (SqlTypeUtil.isCharacter(type)) {
                anyCharacter = true;
            } else if (!SqlTypeUtil.isNull(type)) {
                anyOther = true;
            }
            anyDate |= type.getSqlTypeName() == SqlTypeName.DATE;
            timestamp = type.getSqlTypeName() == SqlTypeName.TIMESTAMP ? type : timestamp;
        }
        if (anyDate && timestamp != null && !anyCharacter) {
            return datesAsTimestamps(binding, timestamp);
        }
        return anyCharacter && anyOther && super.binaryComparisonCoercion(binding);
    }

    /** A DATE compared with a TIMESTAMP is its midnight, as in DuckDB and PostgreSQL. */
    private boolean datesAsTimestamps(SqlCallBinding binding, RelDataType timestamp) {
        boolean coerced = false;
        for (int i = 0; i < binding.getOperandCount(); i++) {
            if (binding.getOperandType(i).getSqlTypeName() == SqlTypeName.DATE) {
                coerced |= coerceOperandType(binding.getScope(), binding.getCall(), i, timestamp);
            }
        }
        return coerced;
    }

    @Override
    public boolean binaryArithmeticCoercion(SqlCallBinding binding) {
        return false;
    }

    /** Only {@code ||}: a non-string operand is cast to VARCHAR ({@code 'a' || 1} is {@code 'a1'}, as in DuckDB and PostgreSQL). */
    @Override
    public boolean builtinFunctionCoercion(SqlCallBinding binding, List<RelDataType> operandTypes, List<SqlTypeFamily> expectedFamilies) {
        if (binding.getOperator() != SqlStdOperatorTable.CONCAT) {
            return false;
        }
        boolean coerced = false;
        RelDataType varchar = factory.createSqlType(SqlTypeName.VARCHAR);
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType type = binding.getOperandType(i);
            if (!SqlTypeUtil.isCharacter(type) && !SqlTypeUtil.isNull(type)) {
                coerced |= coerceOperandType(binding.getScope(), binding.getCall(), i, varchar);
            }
        }
        return coerced;
    }

    @Override
    public boolean userDefinedFunctionCoercion(SqlValidatorScope scope, SqlCall call, SqlFunction function) {
        return false;
    }
}
