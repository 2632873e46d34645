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

    /**
     * Whether the output depends on which build (left) rows found a match anywhere: LEFT, FULL,
     * LEFT_SEMI and LEFT_ANTI, which emit those rows after all probing ends. Such a join cannot
     * split its probe side over tasks that do not share the build side's match marks.
     */
    public boolean emitsBuildRowsAfterProbe() {
        return this == LEFT || this == FULL || this == LEFT_SEMI || this == LEFT_ANTI;
    }

    /** Whether the output depends on which probe (right) rows found a match: RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI. */
    public boolean tracksProbeMatches() {
        return this == RIGHT || this == FULL || this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    /** Whether each matching pair is an output row (INNER, LEFT, RIGHT, FULL), rather than only a mark. */
    public boolean emitsPairs() {
        return this == INNER || this == LEFT || this == RIGHT || this == FULL;
    }

    /** Whether an empty build side gives an empty output, so the probe side need not be read. */
    public boolean emptyBuildGivesEmptyOutput() {
        return this != RIGHT && this != FULL && this != RIGHT_ANTI;
    }
}
