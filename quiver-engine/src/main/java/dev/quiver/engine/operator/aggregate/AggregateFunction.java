package dev.quiver.engine.operator.aggregate;

/** The aggregate functions. COUNT with no argument is {@code COUNT(*)}. */
public enum AggregateFunction {
    COUNT,
    SUM,
    AVG,
    MIN,
    MAX
}
