package dev.quiver.sql.planner;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Gives each {@code x::type} of a parsed statement the position of its text. The parser places the
 * call where the expression around it began (in {@code select id, s::integer} at the comma), and a
 * cast that rejects a value names its position, so the call is replaced by one spanning from
 * {@code x} to the end of the type. Changed in place; a parent that cannot take a new operand keeps
 * the old call.
 */
final class InfixCastPositions {
    private InfixCastPositions() {}

    static SqlNode apply(SqlNode statement) {
        if (statement != null) {
            statement.accept(new Visitor());
        }
        return statement;
    }

    private static final class Visitor extends SqlBasicVisitor<Void> {
        @Override
        public Void visit(SqlCall call) {
            super.visit(call);
            for (int i = 0; i < call.operandCount(); i++) {
                SqlNode operand = call.operand(i);
                SqlNode fixed = fixed(operand);
                if (fixed != operand) {
                    try {
                        call.setOperand(i, fixed);
                    } catch (UnsupportedOperationException e) {
                        // a call whose operands are fixed: the cast keeps the parser's position
                    }
                }
            }
            return null;
        }

        @Override
        public Void visit(SqlNodeList nodes) {
            super.visit(nodes);
            for (int i = 0; i < nodes.size(); i++) {
                SqlNode node = nodes.get(i);
                SqlNode fixed = fixed(node);
                if (fixed != node) {
                    nodes.set(i, fixed);
                }
            }
            return null;
        }

        /** {@code node} if it is no {@code ::} cast or already starts at its operand, else the same cast at its operand's start. */
        private static SqlNode fixed(SqlNode node) {
            if (!(node instanceof SqlBasicCall cast) || cast.getOperator() != SqlLibraryOperators.INFIX_CAST) {
                return node;
            }
            SqlParserPos at = cast.getParserPosition();
            SqlParserPos value = cast.operand(0).getParserPosition();
            if (value.getLineNum() <= 0 || value.getLineNum() == at.getLineNum() && value.getColumnNum() == at.getColumnNum()) {
                return node;
            }
            SqlParserPos spanned = new SqlParserPos(value.getLineNum(), value.getColumnNum(), at.getEndLineNum(), at.getEndColumnNum());
            return new SqlBasicCall(cast.getOperator(), cast.getOperandList(), spanned, cast.getFunctionQuantifier());
        }
    }
}
