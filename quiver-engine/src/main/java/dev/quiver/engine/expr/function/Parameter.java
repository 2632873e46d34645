package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

/**
 * One parameter of a {@link Signature}: a name for documentation and messages, the family of
 * types it accepts, whether the argument must be a constant (a literal after folding), as the
 * digits of {@code round(decimal, digits)} must be, and a check of a constant argument (a regular
 * expression must compile), which the SQL validator runs with the argument's position.
 */
public record Parameter(String name, ArgType type, boolean constant, ConstantCheck check) {
    /** Validates a constant argument; throws a {@link dev.quiver.engine.error.QuiverException} naming the problem. */
    @FunctionalInterface
    public interface ConstantCheck {
        ConstantCheck NONE = value -> { };

        /** {@code value} is the Java value of a non-NULL constant. */
        void check(Object value);
    }

    public Parameter {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(check, "check is null");
    }

    public static Parameter of(String name, ArgType type) {
        return new Parameter(name, type, false, ConstantCheck.NONE);
    }

    public static Parameter constant(String name, ArgType type) {
        return new Parameter(name, type, true, ConstantCheck.NONE);
    }

    /** A parameter whose value, when it is a constant, must pass {@code check}. */
    public static Parameter checked(String name, ArgType type, ConstantCheck check) {
        return new Parameter(name, type, false, check);
    }

    /** A parameter that must be a constant passing {@code check}. */
    public static Parameter checkedConstant(String name, ArgType type, ConstantCheck check) {
        return new Parameter(name, type, true, check);
    }

    String display() {
        return name + " " + type.display();
    }
}
