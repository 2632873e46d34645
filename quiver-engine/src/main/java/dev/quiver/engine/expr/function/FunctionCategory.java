package dev.quiver.engine.expr.function;

/** The family a function belongs to, for documentation. */
public enum FunctionCategory {
    STRING,
    MATH,
    CONDITIONAL,
    DATETIME,
    /** Functions of lists and maps (nested columns). */
    NESTED
}
