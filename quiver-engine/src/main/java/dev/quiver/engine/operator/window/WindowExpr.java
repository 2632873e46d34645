package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One window expression of a {@link WindowExec}: a function, the frame it sees (ignored by
 * functions that do not use one) and the name of its output column.
 */
public record WindowExpr(WindowFunction function, WindowFrame frame, String name) {
    public WindowExpr {
        requireNonNull(function, "function is null");
        requireNonNull(frame, "frame is null");
        requireNonNull(name, "name is null");
    }

    public Field outputField() {
        return QuiverTypes.field(name, function.type(), function.nullable());
    }

    public String display() {
        return function.display() + (function.usesFrame() ? " " + frame.display() : "") + " AS " + name;
    }
}
