package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Optional;

/**
 * One end of a {@link WindowFrame}: {@code UNBOUNDED PRECEDING}, {@code N PRECEDING},
 * {@code CURRENT ROW}, {@code N FOLLOWING} or {@code UNBOUNDED FOLLOWING}. The kinds are declared
 * in frame order, so a frame whose start kind comes after its end kind is invalid.
 *
 * @param kind which bound
 * @param offset N, for {@code PRECEDING} and {@code FOLLOWING} only
 */
public record FrameBound(Kind kind, Optional<FrameOffset> offset) {
    public enum Kind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    public FrameBound {
        requireNonNull(kind, "kind is null");
        requireNonNull(offset, "offset is null");
        boolean needsOffset = kind == Kind.PRECEDING || kind == Kind.FOLLOWING;
        if (needsOffset != offset.isPresent()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, kind + (needsOffset ? " needs an offset" : " takes no offset"));
        }
    }

    public static FrameBound unboundedPreceding() {
        return new FrameBound(Kind.UNBOUNDED_PRECEDING, Optional.empty());
    }

    public static FrameBound unboundedFollowing() {
        return new FrameBound(Kind.UNBOUNDED_FOLLOWING, Optional.empty());
    }

    public static FrameBound currentRow() {
        return new FrameBound(Kind.CURRENT_ROW, Optional.empty());
    }

    public static FrameBound preceding(FrameOffset offset) {
        return new FrameBound(Kind.PRECEDING, Optional.of(offset));
    }

    public static FrameBound following(FrameOffset offset) {
        return new FrameBound(Kind.FOLLOWING, Optional.of(offset));
    }

    public boolean hasOffset() {
        return offset.isPresent();
    }

    public String display() {
        return switch (kind) {
            case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
            case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
            case CURRENT_ROW -> "CURRENT ROW";
            case PRECEDING -> offset.orElseThrow().display() + " PRECEDING";
            case FOLLOWING -> offset.orElseThrow().display() + " FOLLOWING";
        };
    }
}
