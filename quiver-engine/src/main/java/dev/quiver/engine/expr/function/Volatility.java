package dev.quiver.engine.expr.function;

/** Whether a function gives the same result for the same arguments, which decides if it may be folded. */
public enum Volatility {
    /** Same arguments, same result, always: folded when its arguments are constants. */
    IMMUTABLE,
    /** One value for the whole query ({@code now()}): never folded at planning, fixed once per query. */
    STABLE,
    /** A new value per call ({@code random()}): never folded. */
    VOLATILE
}
