package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

/**
 * One parameter of a {@link Signature}: a name for documentation and messages, the family of
 * types it accepts, and whether the argument must be a constant (a literal after folding), as
 * the digits of {@code round(decimal, digits)} must be.
 */
public record Parameter(String name, ArgType type, boolean constant) {
    public Parameter {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    public static Parameter of(String name, ArgType type) {
        return new Parameter(name, type, false);
    }

    public static Parameter constant(String name, ArgType type) {
        return new Parameter(name, type, true);
    }

    String display() {
        return name + " " + type.display();
    }
}
