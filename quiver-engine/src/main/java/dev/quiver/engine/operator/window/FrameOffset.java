package dev.quiver.engine.operator.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;

/**
 * The N of {@code N PRECEDING} / {@code N FOLLOWING}: a count of rows or peer groups (ROWS,
 * GROUPS), a number to subtract from or add to a numeric ORDER BY key, or an interval for a date or
 * timestamp key (RANGE). Never negative.
 */
public sealed interface FrameOffset {
    String display();

    /** Rows or peer groups. */
    record Count(long value) implements FrameOffset {
        public Count {
            if (value < 0) {
                throw negative(Long.toString(value));
            }
        }

        @Override
        public String display() {
            return Long.toString(value);
        }
    }

    /** A distance between values of a numeric ORDER BY key. */
    record Number(BigDecimal value) implements FrameOffset {
        public Number {
            requireNonNull(value, "value is null");
            if (value.signum() < 0) {
                throw negative(value.toPlainString());
            }
        }

        @Override
        public String display() {
            return value.toPlainString();
        }
    }

    /**
     * A distance between dates or timestamps: {@code months} calendar months plus {@code micros}
     * microseconds (SQL's year-month and day-time intervals are one or the other).
     */
    record Interval(int months, long micros) implements FrameOffset {
        public Interval {
            if (months < 0 || micros < 0) {
                throw negative("INTERVAL of " + months + " months and " + micros + " microseconds");
            }
        }

        @Override
        public String display() {
            if (months != 0 && micros == 0) {
                return "INTERVAL '" + months + "' MONTH";
            }
            if (months == 0 && micros % 86_400_000_000L == 0) {
                return "INTERVAL '" + micros / 86_400_000_000L + "' DAY";
            }
            return "INTERVAL '" + months + " months " + micros + " microseconds'";
        }
    }

    private static QuiverException negative(String value) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, "Window frame offsets must not be negative: " + value);
    }
}
