package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.operator.window.FrameBound;
import dev.quiver.engine.operator.window.FrameOffset;
import dev.quiver.engine.operator.window.WindowFrame;
import dev.quiver.sql.planner.GroupsFrames;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * The engine's {@link WindowFrame} of a Calcite {@link Window.Group}: its units, bounds and exclusion.
 * A ROWS group whose offsets carry {@link GroupsFrames#OFFSET_MARK} is a GROUPS frame.
 */
final class WindowFrames {
    private static final long MICROS_PER_MILLI = 1000;

    private WindowFrames() {}

    /**
     * @param inputFields the number of fields of the window's input: an offset that refers to a
     *     field beyond them is one of {@code constants}
     */
    static WindowFrame of(Window.Group group, int inputFields, List<RexLiteral> constants) {
        WindowFrame.Units units = group.isRows ? WindowFrame.Units.ROWS : WindowFrame.Units.RANGE;
        if (group.isRows && (isGroupsMark(group.lowerBound, inputFields, constants) || isGroupsMark(group.upperBound, inputFields, constants))) {
            units = WindowFrame.Units.GROUPS;
        }
        return new WindowFrame(units, bound(group.lowerBound, units, inputFields, constants),
                bound(group.upperBound, units, inputFields, constants), exclusion(group.exclude));
    }

    /** Whether a ROWS bound carries the offset mark of a GROUPS frame ({@link GroupsFrames}). */
    private static boolean isGroupsMark(RexWindowBound bound, int inputFields, List<RexLiteral> constants) {
        if (bound.getOffset() == null) {
            return false;
        }
        RexLiteral literal = literal(bound.getOffset(), inputFields, constants);
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        return value != null && value.compareTo(BigDecimal.valueOf(GroupsFrames.OFFSET_MARK)) >= 0;
    }

    private static WindowFrame.Exclusion exclusion(RexWindowExclusion exclusion) {
        return switch (exclusion) {
            case EXCLUDE_NO_OTHER -> WindowFrame.Exclusion.NO_OTHERS;
            case EXCLUDE_CURRENT_ROW -> WindowFrame.Exclusion.CURRENT_ROW;
            case EXCLUDE_GROUP -> WindowFrame.Exclusion.GROUP;
            case EXCLUDE_TIES -> WindowFrame.Exclusion.TIES;
        };
    }

    private static FrameBound bound(RexWindowBound bound, WindowFrame.Units units, int inputFields, List<RexLiteral> constants) {
        if (bound.isUnboundedPreceding()) {
            return FrameBound.unboundedPreceding();
        }
        if (bound.isUnboundedFollowing()) {
            return FrameBound.unboundedFollowing();
        }
        if (bound.isCurrentRow()) {
            return FrameBound.currentRow();
        }
        FrameOffset offset = offset(literal(bound.getOffset(), inputFields, constants), units);
        return bound.isPreceding() ? FrameBound.preceding(offset) : FrameBound.following(offset);
    }

    private static RexLiteral literal(RexNode offset, int inputFields, List<RexLiteral> constants) {
        if (offset instanceof RexLiteral literal) {
            return literal;
        }
        if (offset instanceof RexInputRef ref && ref.getIndex() >= inputFields) {
            return constants.get(ref.getIndex() - inputFields);
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Window frame offsets must be constants, not " + offset);
    }

    private static FrameOffset offset(RexLiteral literal, WindowFrame.Units units) {
        if (literal.isNull()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Window frame offsets must not be NULL");
        }
        SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (family == SqlTypeFamily.INTERVAL_DAY_TIME) {
            return new FrameOffset.Interval(0, value.longValueExact() * MICROS_PER_MILLI);
        }
        if (family == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            return new FrameOffset.Interval(value.intValueExact(), 0);
        }
        if (units == WindowFrame.Units.RANGE) {
            return new FrameOffset.Number(value);
        }
        if (units == WindowFrame.Units.GROUPS) {
            value = value.subtract(BigDecimal.valueOf(GroupsFrames.OFFSET_MARK));
        }
        if (value.signum() < 0) {
            return new FrameOffset.Count(value.longValue());
        }
        if (value.stripTrailingZeros().scale() > 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, units + " frame offsets must be whole numbers: " + value.toPlainString());
        }
        return new FrameOffset.Count(value.longValueExact());
    }
}
