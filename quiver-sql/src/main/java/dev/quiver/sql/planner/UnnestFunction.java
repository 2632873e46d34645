package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * DuckDB's {@code unnest(list)} in a select list, typed as the list's element (nullable): each row
 * once per element; {@code unnest(NULL)} is the unnest of a NULL list, typed NULL. It is not a
 * scalar function — {@link Unnests} turns every call of it into a {@link LogicalUnnest} below its
 * projection before anything else sees the plan, and {@link UnnestPlacement} refuses it where it
 * has no meaning (WHERE, aggregates, windows...). In a FROM clause {@code UNNEST(...)} stays Calcite's table operator ({@link FileReferenceTokens} tells
 * the two apart). Not deterministic, so that nothing folds or duplicates a call.
 */
final class UnnestFunction extends SqlFunction {
    static final UnnestFunction INSTANCE = new UnnestFunction();

    private UnnestFunction() {
        super("UNNEST", SqlKind.OTHER_FUNCTION, UnnestFunction::elementType, null, new ListOperand(), SqlFunctionCategory.SYSTEM);
    }

    static boolean isCall(SqlOperator operator) {
        return operator == INSTANCE;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }

    /** The list's element type; for the NULL literal (a NULL list, no elements) the NULL type, as DuckDB's. */
    private static RelDataType elementType(SqlOperatorBinding binding) {
        RelDataType list = binding.getOperandType(0);
        if (list.getSqlTypeName() == SqlTypeName.NULL) {
            return list;
        }
        RelDataType element = list.getComponentType();
        return binding.getTypeFactory().createTypeWithNullability(element, true);
    }

    /** One argument, a list. */
    private static final class ListOperand implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            RelDataType type = binding.getOperandType(0);
            if (type.getSqlTypeName() == SqlTypeName.ARRAY || type.getSqlTypeName() == SqlTypeName.NULL) {
                return true;
            }
            SqlParserPos pos = binding.operand(0).getParserPosition();
            throw new QuiverException(ErrorCode.TYPE_MISMATCH, "UNNEST() can only be applied to lists, not " + type.getFullTypeString()
                    + " (at line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ")",
                    new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum()), null);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return "UNNEST(<LIST>)";
        }
    }
}
