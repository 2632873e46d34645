package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * The frame of a window function: which rows of the current row's partition it sees.
 *
 * <ul>
 * <li>{@link Units#ROWS}: bounds count rows from the current row.</li>
 * <li>{@link Units#RANGE}: bounds are values of the (single) ORDER BY key: {@code N PRECEDING} is
 *     every row whose key is within N below the current row's (above, for a descending key);
 *     {@code CURRENT ROW} is the current row's peers (rows with an equal ORDER BY key).</li>
 * <li>{@link Units#GROUPS}: bounds count peer groups from the current row's peer group.</li>
 * </ul>
 *
 * <p>{@link Exclusion} then removes the current row, its peer group, or its peers but not itself.
 * The SQL default is {@link #DEFAULT_WITH_ORDER} ({@code RANGE BETWEEN UNBOUNDED PRECEDING AND
 * CURRENT ROW}) with ORDER BY, and the whole partition ({@link #WHOLE_PARTITION}) without it.
 */
public record WindowFrame(Units units, FrameBound start, FrameBound end, Exclusion exclusion) {
    public static final WindowFrame DEFAULT_WITH_ORDER = new WindowFrame(Units.RANGE, FrameBound.unboundedPreceding(),
            FrameBound.currentRow(), Exclusion.NO_OTHERS);
    public static final WindowFrame WHOLE_PARTITION = new WindowFrame(Units.ROWS, FrameBound.unboundedPreceding(),
            FrameBound.unboundedFollowing(), Exclusion.NO_OTHERS);

    public enum Units { ROWS, RANGE, GROUPS }

    /** {@code EXCLUDE NO OTHERS} (the default), {@code CURRENT ROW}, {@code GROUP} or {@code TIES}. */
    public enum Exclusion { NO_OTHERS, CURRENT_ROW, GROUP, TIES }

    public WindowFrame {
        requireNonNull(units, "units is null");
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        requireNonNull(exclusion, "exclusion is null");
        if (start.kind() == FrameBound.Kind.UNBOUNDED_FOLLOWING) {
            throw invalid("a frame cannot start at UNBOUNDED FOLLOWING");
        }
        if (end.kind() == FrameBound.Kind.UNBOUNDED_PRECEDING) {
            throw invalid("a frame cannot end at UNBOUNDED PRECEDING");
        }
        if (start.kind().ordinal() > end.kind().ordinal()) {
            throw invalid("a frame cannot start at " + start.display() + " and end at " + end.display() + " (the start comes after the end)");
        }
        checkOffset(units, start);
        checkOffset(units, end);
    }

    private static void checkOffset(Units units, FrameBound bound) {
        if (!bound.hasOffset()) {
            return;
        }
        FrameOffset offset = bound.offset().orElseThrow();
        boolean rowsOrGroups = units != Units.RANGE;
        if (rowsOrGroups && !(offset instanceof FrameOffset.Count)) {
            throw invalid(units + " frame offsets must be whole numbers of " + (units == Units.ROWS ? "rows" : "groups") + ": " + offset.display());
        }
        if (!rowsOrGroups && offset instanceof FrameOffset.Count) {
            throw invalid("RANGE frame offsets are values of the ORDER BY key: " + offset.display());
        }
    }

    private static QuiverException invalid(String message) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, "Invalid window frame: " + message);
    }

    /** Whether the frame is the whole partition whatever the current row. */
    public boolean isWholePartition() {
        return start.kind() == FrameBound.Kind.UNBOUNDED_PRECEDING && end.kind() == FrameBound.Kind.UNBOUNDED_FOLLOWING
                && exclusion == Exclusion.NO_OTHERS;
    }

    /** Whether the frame depends on peer groups (and so on the ORDER BY keys). */
    boolean usesPeers() {
        return units != Units.ROWS || exclusion == Exclusion.GROUP || exclusion == Exclusion.TIES;
    }

    public String display() {
        String text = units + " BETWEEN " + start.display() + " AND " + end.display();
        return exclusion == Exclusion.NO_OTHERS ? text : text + " EXCLUDE " + exclusion.name().replace('_', ' ');
    }
}
