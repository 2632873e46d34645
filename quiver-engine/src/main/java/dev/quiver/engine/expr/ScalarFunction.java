package dev.quiver.engine.expr;

/** Functions of {@link ScalarFunctionExpr}, with their argument shapes. */
public enum ScalarFunction {
    /** SUBSTRING(string, start [, length]), 1-based as in SQL. */
    SUBSTRING,
    UPPER,
    LOWER,
    /** TRIM(string): both ends, spaces. */
    TRIM,
    /** CHAR_LENGTH(string) in characters, BIGINT. */
    CHAR_LENGTH,
    /** CONCAT(a, b, ...) / {@code ||}. */
    CONCAT,
    /** EXTRACT(YEAR FROM date|timestamp) as BIGINT. */
    EXTRACT_YEAR,
    EXTRACT_MONTH,
    EXTRACT_DAY,
    /** DATE + n days: (DATE, INTEGER|BIGINT) → DATE. */
    DATE_ADD_DAYS,
    /** DATE + n months, clamped to the month's last day: (DATE, INTEGER) → DATE. */
    DATE_ADD_MONTHS,
    ABS,
    /** COALESCE(a, b, ...): the first non-null argument. */
    COALESCE,
    /** ROUND(number [, scale]). */
    ROUND
}
