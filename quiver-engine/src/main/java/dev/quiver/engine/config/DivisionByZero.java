package dev.quiver.engine.config;

/**
 * What a division or remainder by zero gives ({@code x / 0}, {@code x % 0}, {@code mod(x, 0)},
 * {@code divide(x, 0)}, whatever the types): the setting {@code division_by_zero}.
 */
public enum DivisionByZero {
    /** The query fails with DIVISION_BY_ZERO, as in PostgreSQL and Trino. */
    ERROR,
    /** The result is NULL, as in Spark (not ANSI) and DuckDB's {@code //} and {@code %} with {@code error_on_division_by_zero = false}. */
    NULL
}
