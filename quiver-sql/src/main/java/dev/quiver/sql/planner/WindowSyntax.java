package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What Quiver does to window specifications right after parsing:
 *
 * <ul>
 * <li>marks GROUPS frames ({@link GroupsFrames});</li>
 * <li>checks that frame offsets are constants that are not negative, and that the arguments of
 *     NTILE and NTH_VALUE are positive, failing with INVALID_ARGUMENT at the offending text;</li>
 * <li>copies the PARTITION BY and ORDER BY of a named window into a window that refers to it and
 *     adds a frame ({@code OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)}): Calcite 1.42's
 *     {@code SqlWindow.overlay} takes the frame from the named window and so drops the referring
 *     window's own.</li>
 * </ul>
 */
final class WindowSyntax {
    private WindowSyntax() {}

    static SqlNode apply(SqlNode statement, GroupsFrames.Rewrite groups) {
        if (statement != null) {
            statement.accept(new Visitor(groups));
        }
        return statement;
    }

    private static final class Visitor extends SqlBasicVisitor<Void> {
        private final GroupsFrames.Rewrite groups;

        Visitor(GroupsFrames.Rewrite groups) {
            this.groups = groups;
        }

        @Override
        public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select) {
                inlineReferences(select);
            }
            if (call instanceof SqlWindow window) {
                frame(window);
            } else if (call.getKind() == SqlKind.OVER && call.operand(0) instanceof SqlCall function) {
                checkArguments(function);
            }
            return super.visit(call);
        }

        private void frame(SqlWindow window) {
            SqlLiteral isRows = (SqlLiteral) window.getOperandList().get(4);
            boolean markGroups = isRows != null && groups.isGroups(isRows.getParserPosition());
            SqlNode lower = window.getLowerBound();
            SqlNode upper = window.getUpperBound();
            checkOffset(lower);
            checkOffset(upper);
            if (markGroups) {
                markGroups(window, lower, upper == null ? SqlWindow.createCurrentRow(SqlParserPos.ZERO) : upper);
            } else if (window.isRows()) {
                window.setLowerBound(clampRows(lower));
                window.setUpperBound(clampRows(upper));
            }
        }
    }

    /** A frame offset must be a number or interval literal, not negative. */
    private static void checkOffset(SqlNode bound) {
        if (!(bound instanceof SqlCall call) || (call.getKind() != SqlKind.PRECEDING && call.getKind() != SqlKind.FOLLOWING)) {
            return;
        }
        SqlNode offset = call.operand(0);
        boolean negative = offset instanceof SqlCall minus && minus.getKind() == SqlKind.MINUS_PREFIX
                || offset instanceof SqlNumericLiteral number && number.getValueAs(BigDecimal.class).signum() < 0
                || offset instanceof SqlIntervalLiteral interval && isNegative(interval);
        if (negative) {
            throw invalid(offset, "Window frame offsets must not be negative: " + offset);
        }
        if (!(offset instanceof SqlNumericLiteral) && !(offset instanceof SqlIntervalLiteral)) {
            throw invalid(offset, "Window frame offsets must be constants (a number, or an interval for dates and timestamps), not " + offset);
        }
    }

    private static boolean isNegative(SqlIntervalLiteral interval) {
        SqlIntervalLiteral.IntervalValue value = interval.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        return value.getSign() * (value.getIntervalLiteral().strip().startsWith("-") ? -1 : 1) < 0;
    }

    private static void checkArguments(SqlCall function) {
        String name = function.getOperator().getName().toUpperCase(Locale.ROOT);
        int position = switch (name) {
            case "NTILE" -> 0;
            case "NTH_VALUE" -> 1;
            default -> -1;
        };
        if (position < 0 || function.operandCount() <= position) {
            return;
        }
        SqlNode argument = function.operand(position);
        boolean notPositive = argument instanceof SqlCall minus && minus.getKind() == SqlKind.MINUS_PREFIX
                || argument instanceof SqlNumericLiteral number && number.getValueAs(BigDecimal.class).signum() <= 0;
        if (notPositive) {
            throw invalid(argument, "The " + (position == 0 ? "argument" : "position") + " of " + name + " must be greater than zero: " + argument);
        }
    }

    /** GROUPS bounds as ROWS offsets of {@link GroupsFrames#OFFSET_MARK} plus the number of groups. */
    private static void markGroups(SqlWindow window, SqlNode lower, SqlNode upper) {
        if (SqlWindow.isUnboundedPreceding(lower) && SqlWindow.isUnboundedFollowing(upper)) {
            return;
        }
        window.setLowerBound(marked(lower, true));
        window.setUpperBound(marked(upper, false));
    }

    private static SqlNode marked(SqlNode bound, boolean start) {
        if (SqlWindow.isUnboundedPreceding(bound) || SqlWindow.isUnboundedFollowing(bound)) {
            return bound;
        }
        SqlParserPos pos = bound.getParserPosition();
        if (SqlWindow.isCurrentRow(bound)) {
            SqlNode zero = SqlLiteral.createExactNumeric(Long.toString(GroupsFrames.OFFSET_MARK), pos);
            return start ? SqlWindow.createPreceding(zero, pos) : SqlWindow.createFollowing(zero, pos);
        }
        SqlCall call = (SqlCall) bound;
        SqlNumericLiteral count = (SqlNumericLiteral) call.operand(0);
        BigDecimal groups = count.getValueAs(BigDecimal.class);
        if (groups.stripTrailingZeros().scale() > 0) {
            throw invalid(count, "GROUPS frame offsets must be whole numbers: " + count);
        }
        BigDecimal value = groups.min(BigDecimal.valueOf(GroupsFrames.OFFSET_MARK)).add(BigDecimal.valueOf(GroupsFrames.OFFSET_MARK));
        SqlNode offset = SqlLiteral.createExactNumeric(value.toPlainString(), count.getParserPosition());
        return call.getKind() == SqlKind.PRECEDING ? SqlWindow.createPreceding(offset, pos) : SqlWindow.createFollowing(offset, pos);
    }

    /** A ROWS offset at or above the GROUPS mark means the same as one just below it (no partition has 2^40 rows). */
    private static SqlNode clampRows(SqlNode bound) {
        if (!(bound instanceof SqlCall call) || !(call.operand(0) instanceof SqlNumericLiteral number)
                || number.getValueAs(BigDecimal.class).compareTo(BigDecimal.valueOf(GroupsFrames.OFFSET_MARK)) < 0) {
            return bound;
        }
        SqlNode clamped = SqlLiteral.createExactNumeric(Long.toString(GroupsFrames.OFFSET_MARK - 1), number.getParserPosition());
        SqlParserPos pos = bound.getParserPosition();
        return call.getKind() == SqlKind.PRECEDING ? SqlWindow.createPreceding(clamped, pos) : SqlWindow.createFollowing(clamped, pos);
    }

    /** Windows of {@code select} that refer to a named window and add a frame get the named window's keys and no reference. */
    private static void inlineReferences(SqlSelect select) {
        Map<String, SqlWindow> declared = new HashMap<>();
        for (SqlNode node : select.getWindowList()) {
            SqlWindow window = (SqlWindow) node;
            if (window.getDeclName() != null) {
                declared.put(window.getDeclName().getSimple().toLowerCase(Locale.ROOT), window);
            }
        }
        if (declared.isEmpty()) {
            return;
        }
        for (SqlNode node : select.getWindowList()) {
            inline((SqlWindow) node, declared, 0);
        }
        select.getSelectList().accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER && call.operandCount() > 1 && call.operand(1) instanceof SqlWindow window) {
                    inline(window, declared, 0);
                }
                return super.visit(call);
            }
        });
        if (select.getQualify() != null) {
            select.getQualify().accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall call) {
                    if (call.getKind() == SqlKind.OVER && call.operandCount() > 1 && call.operand(1) instanceof SqlWindow window) {
                        inline(window, declared, 0);
                    }
                    return super.visit(call);
                }
            });
        }
    }

    private static void inline(SqlWindow window, Map<String, SqlWindow> declared, int depth) {
        SqlIdentifier ref = window.getRefName();
        boolean hasFrame = window.getLowerBound() != null || window.getUpperBound() != null
                || !SqlWindow.isExcludeNoOthers(window.getExclude());
        if (ref == null || !hasFrame || depth > declared.size()) {
            return;
        }
        SqlWindow base = declared.get(ref.getSimple().toLowerCase(Locale.ROOT));
        if (base == null || base.getLowerBound() != null || base.getUpperBound() != null || !window.getPartitionList().isEmpty()
                || (!window.getOrderList().isEmpty() && !base.getOrderList().isEmpty())) {
            // leave it to the validator, which reports what is wrong
            return;
        }
        inline(base, declared, depth + 1);
        if (base.getRefName() != null) {
            return;
        }
        window.setPartitionList(base.getPartitionList());
        if (window.getOrderList().isEmpty()) {
            window.setOrderList(base.getOrderList());
        }
        window.setOperand(1, null);
    }

    private static QuiverException invalid(SqlNode node, String message) {
        SqlParserPos pos = node.getParserPosition();
        SqlPosition position = pos.getLineNum() > 0 ? new SqlPosition(pos.getLineNum(), pos.getColumnNum()) : null;
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, message + (position == null ? "" : " (at " + position + ")"), position, null);
    }
}
