package dev.quiver.engine.operator.join;

/**
 * Join types. Left is the build side of a hash join. SEMI and ANTI joins emit only the named
 * side's columns: LEFT_SEMI emits left rows with a match, RIGHT_ANTI right rows without one.
 */
public enum JoinType {
    INNER,
    LEFT,
    RIGHT,
    FULL,
    LEFT_SEMI,
    LEFT_ANTI,
    RIGHT_SEMI,
    RIGHT_ANTI;

    /** Whether the output has the left side's columns. */
    public boolean outputsLeft() {
        return this != RIGHT_SEMI && this != RIGHT_ANTI;
    }

    /** Whether the output has the right side's columns. */
    public boolean outputsRight() {
        return this != LEFT_SEMI && this != LEFT_ANTI;
    }
}
