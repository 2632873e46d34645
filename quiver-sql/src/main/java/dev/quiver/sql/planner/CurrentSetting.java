package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * {@code current_setting('name')}: a session setting's value as text, as {@code SHOW SETTINGS}
 * shows it (PostgreSQL's function). The value is fixed for the statement, so the function is
 * bound when the query is validated: it becomes a VARCHAR literal, and the engine has nothing to
 * compute (no second implementation to disagree with). The name must be a string literal; an
 * unknown name is {@code INVALID_CONFIGURATION} at its position.
 */
final class CurrentSetting extends SqlFunction {
    private final Settings settings;

    CurrentSetting(Settings settings) {
        super("CURRENT_SETTING", SqlKind.OTHER_FUNCTION, binding -> binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), null,
                OperandTypes.CHARACTER, SqlFunctionCategory.SYSTEM);
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
        return SqlOperandCountRanges.of(1);
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
        value(binding.getCall());
        return super.checkOperandTypes(binding, throwOnFailure);
    }

    /** The setting's value as text; fails naming the position when the argument is not a known setting's name. */
    String value(SqlCall call) {
        SqlNode argument = call.operand(0);
        if (!(argument instanceof SqlCharStringLiteral literal)) {
            throw error(call.getParserPosition(), ErrorCode.INVALID_ARGUMENT, "current_setting takes a setting's name as a string literal, such as "
                    + "current_setting('batch_size')");
        }
        String name = literal.getValueAs(String.class);
        try {
            return settings.display(name);
        } catch (QuiverException e) {
            throw error(argument.getParserPosition(), e.errorCode(), e.getMessage());
        }
    }

    private static QuiverException error(SqlParserPos pos, ErrorCode code, String message) {
        SqlPosition position = pos.getLineNum() > 0 ? new SqlPosition(pos.getLineNum(), pos.getColumnNum()) : null;
        return new QuiverException(code, position == null ? message : message + " (at " + position + ")", position, null);
    }

    /** Converts calls of {@code function} to their literal value; every other call as Calcite does. */
    static SqlRexConvertletTable convertlets(CurrentSetting function) {
        SqlRexConvertlet literal = (context, call) -> {
            RelDataType type = context.getTypeFactory().createSqlType(SqlTypeName.VARCHAR);
            return context.getRexBuilder().makeLiteral(function.value(call), type, true);
        };
        return call -> call.getOperator() == function ? literal : StandardConvertletTable.INSTANCE.get(call);
    }
}
