package dev.quiver.engine.source.files;

import java.math.BigDecimal;

/** Orders the Java values of statistics and literals the way Parquet orders the stored values. */
public final class StatsValues {
    private StatsValues() {}

    /** Whether two values can be ordered against each other by {@link #compare}. */
    public static boolean comparable(Object a, Object b) {
        if (a instanceof Double x && !Double.isFinite(x) || b instanceof Double y && !Double.isFinite(y)) {
            return a instanceof Double && b instanceof Double;
        }
        return (a instanceof Number && b instanceof Number)
                || (a instanceof String && b instanceof String)
                || (a instanceof Boolean && b instanceof Boolean);
    }

    /** Numbers by value, strings by UTF-8 bytes (code points), booleans false before true. */
    public static int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Integer x && b instanceof Integer y) {
            return Integer.compare(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            // as the engine compares: -0.0 equals 0.0, NaN above every number
            return x.doubleValue() == y.doubleValue() ? 0 : Double.compare(x, y);
        }
        return decimal((Number) a).compareTo(decimal((Number) b));
    }

    private static BigDecimal decimal(Number value) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(value.doubleValue());
        }
        return BigDecimal.valueOf(value.longValue());
    }

    /** UTF-8 byte order equals code point order; Java's {@code compareTo} uses UTF-16 units instead. */
    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
