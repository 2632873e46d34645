package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * {@code FROM UNNEST(NULL)} is a TYPE_MISMATCH naming where the NULL is, as DuckDB's binder error
 * and PostgreSQL's: checked before validation, where Calcite's table UNNEST would fail on the
 * untyped NULL with nothing but "componentType". (A select list's {@code unnest(NULL)} is the
 * unnest of a NULL list, no rows, as in DuckDB: {@link UnnestFunction} types it.)
 */
final class TableUnnestOfNull {
    private TableUnnestOfNull() {}

    static SqlNode check(SqlNode parsed) {
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.UNNEST) {
                    for (SqlNode operand : call.getOperandList()) {
                        if (operand != null && SqlUtil.isNullLiteral(operand, false)) {
                            throw notAList(operand.getParserPosition());
                        }
                    }
                }
                return super.visit(call);
            }
        });
        return parsed;
    }

    private static QuiverException notAList(SqlParserPos pos) {
        return new QuiverException(ErrorCode.TYPE_MISMATCH, "UNNEST in a FROM clause needs a list, not NULL (at line " + pos.getLineNum() + ", column "
                + pos.getColumnNum() + "); for no rows, give the NULL a list type: UNNEST(CAST(NULL AS INTEGER ARRAY))",
                new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum()), null);
    }
}
