package dev.quiver.engine.stats;

import dev.quiver.engine.execution.PlanChecks;
import java.util.OptionalLong;

/**
 * A count that is exact, an estimate, or unknown: row counts, byte sizes, null and distinct
 * counts. Arithmetic keeps the weakest precision of its operands.
 */
public record Estimate(Precision precision, long value) {
    private static final Estimate ABSENT = new Estimate(Precision.ABSENT, 0);

    public Estimate {
        if (precision == null) {
            throw new NullPointerException("precision is null");
        }
        if (precision == Precision.ABSENT) {
            value = 0;
        } else if (value < 0) {
            throw PlanChecks.planError("Estimate", "must not be negative: %s", value);
        }
    }

    public static Estimate exact(long value) {
        return new Estimate(Precision.EXACT, value);
    }

    public static Estimate inexact(long value) {
        return new Estimate(Precision.INEXACT, value);
    }

    public static Estimate absent() {
        return ABSENT;
    }

    public boolean isExact() {
        return precision == Precision.EXACT;
    }

    public boolean isKnown() {
        return precision != Precision.ABSENT;
    }

    public OptionalLong asOptional() {
        return isKnown() ? OptionalLong.of(value) : OptionalLong.empty();
    }

    /** The same value, no longer claimed exact. */
    public Estimate toInexact() {
        return precision == Precision.EXACT ? inexact(value) : this;
    }

    public Estimate plus(Estimate other) {
        if (!isKnown() || !other.isKnown()) {
            return ABSENT;
        }
        return new Estimate(weaker(other), saturatedAdd(value, other.value));
    }

    /** Scales by a factor (selectivity, fraction); the result is never exact unless the factor is 1. */
    public Estimate times(double factor) {
        if (!isKnown()) {
            return ABSENT;
        }
        if (factor == 1.0) {
            return this;
        }
        return inexact((long) Math.min(Long.MAX_VALUE, Math.ceil(value * factor)));
    }

    public Estimate min(Estimate other) {
        if (!isKnown() || !other.isKnown()) {
            return isKnown() ? toInexact() : other.toInexact();
        }
        return new Estimate(weaker(other), Math.min(value, other.value));
    }

    private Precision weaker(Estimate other) {
        return precision == Precision.EXACT && other.precision == Precision.EXACT ? Precision.EXACT : Precision.INEXACT;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    @Override
    public String toString() {
        return switch (precision) {
            case EXACT -> Long.toString(value);
            case INEXACT -> "~" + value;
            case ABSENT -> "?";
        };
    }
}
