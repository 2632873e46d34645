package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

/**
 * Another table's conversions, except that a LIKE, ILIKE or SIMILAR TO whose constant ESCAPE is not
 * one character fails as a user error, at its position: Calcite's own LIKE simplification would
 * otherwise fail on an empty escape with an internal error.
 */
final class LikeEscapeCheck implements SqlRexConvertletTable {
    private final SqlRexConvertletTable conversions;

    private LikeEscapeCheck(SqlRexConvertletTable conversions) {
        this.conversions = requireNonNull(conversions, "conversions is null");
    }

    /** {@code conversions} with the escape check. */
    static SqlRexConvertletTable over(SqlRexConvertletTable conversions) {
        return new LikeEscapeCheck(conversions);
    }

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        SqlRexConvertlet standard = conversions.get(call);
        if (standard == null || call.getKind() != SqlKind.LIKE && call.getKind() != SqlKind.SIMILAR || call.operandCount() < 3) {
            return standard;
        }
        return (context, like) -> {
            RexNode converted = standard.convertCall(context, like);
            if (converted instanceof RexCall rex && rex.getOperands().size() > 2) {
                check(rex.getOperands(), like.getParserPosition());
            }
            return converted;
        };
    }

    private static void check(List<RexNode> operands, SqlParserPos pos) {
        if (operands.get(2) instanceof RexLiteral literal && !literal.isNull()) {
            String escape = literal.getValueAs(String.class);
            if (escape == null || escape.codePointCount(0, escape.length()) != 1) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The escape must be one character: '" + escape + "' (at line "
                        + pos.getLineNum() + ", column " + pos.getColumnNum() + ")",
                        new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum()), null);
            }
        }
    }
}
