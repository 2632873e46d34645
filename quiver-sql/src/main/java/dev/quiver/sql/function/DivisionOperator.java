package dev.quiver.sql.function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * {@code x / y} typed as DuckDB (and Spark and MySQL) type it, in place of Calcite's standard
 * operator (the operator table hides that one): the quotient of two integers is a DOUBLE, so
 * {@code 7 / 2} is 3.5 where PostgreSQL truncates to 3. Every other form is the standard
 * operator's (decimals keep a DECIMAL quotient, see QuiverTypeSystem; intervals divide as intervals).
 * Integer division is the function {@code divide(x, y)}, DuckDB's name for its {@code //}
 * (Calcite's parser reads {@code //} as the start of a comment).
 */
public final class DivisionOperator extends SqlBinaryOperator {
    public static final DivisionOperator INSTANCE = new DivisionOperator();

    private DivisionOperator() {
        // 60: the precedence of Calcite's * and /
        super(SqlStdOperatorTable.DIVIDE.getName(), SqlKind.DIVIDE, 60, true, ReturnTypes.QUOTIENT_NULLABLE, InferTypes.FIRST_KNOWN,
                OperandTypes.DIVISION_OPERATOR);
    }

    @Override
    public RelDataType inferReturnType(SqlOperatorBinding binding) {
        if (binding.getOperandCount() == 2) {
            RelDataType left = binding.getOperandType(0);
            RelDataType right = binding.getOperandType(1);
            if (SqlTypeUtil.isIntType(left) && SqlTypeUtil.isIntType(right)) {
                RelDataTypeFactory typeFactory = binding.getTypeFactory();
                return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                        left.isNullable() || right.isNullable());
            }
        }
        return super.inferReturnType(binding);
    }
}
