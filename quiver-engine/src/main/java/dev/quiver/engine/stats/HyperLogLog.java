package dev.quiver.engine.stats;

/**
 * HyperLogLog on an array of {@code 2^lgK} one-byte registers: the distinct-count sketch of
 * {@code APPROX_COUNT_DISTINCT} and of the adaptive planner's key samples. Callers own the
 * registers (one array per sketch, or per group of an aggregate) and pass well-mixed 64-bit hashes:
 * the top {@code lgK} bits choose a register, the position of the first 1-bit of the rest is its
 * rank, and a register keeps the largest rank it saw, so a union is the registers' maximum and
 * does not depend on the order values arrive in.
 *
 * <p>The estimate is Otmar Ertl's "improved raw estimator" (<i>New cardinality estimation
 * algorithms for HyperLogLog sketches</i>, 2017): unbiased from a handful of values to far beyond
 * {@code 2^lgK} without the empirical bias tables of HLL++ or the jump of the classic estimate's
 * switch from linear counting; its relative standard error is about {@code 1.04 / sqrt(2^lgK)}.
 */
public final class HyperLogLog {
    public static final int MIN_LG_K = 4;
    public static final int MAX_LG_K = 16;
    private static final double ALPHA_INFINITY = 1 / (2 * Math.log(2));

    private HyperLogLog() {}

    /** The relative standard error of an estimate from {@code 2^lgK} registers. */
    public static double standardError(int lgK) {
        return 1.04 / Math.sqrt(1 << lgK);
    }

    /** New empty registers; IllegalArgumentException for {@code lgK} outside [{@value #MIN_LG_K}, {@value #MAX_LG_K}]. */
    public static byte[] registers(int lgK) {
        if (lgK < MIN_LG_K || lgK > MAX_LG_K) {
            throw new IllegalArgumentException("lgK must be in [" + MIN_LG_K + ", " + MAX_LG_K + "]: " + lgK);
        }
        return new byte[1 << lgK];
    }

    /** Adds one value, by its hash, to {@code registers} (of {@code 2^lgK}). */
    public static void add(byte[] registers, int lgK, long hash) {
        int index = (int) (hash >>> (64 - lgK));
        int rank = Math.min(Long.numberOfLeadingZeros(hash << lgK), 64 - lgK) + 1;
        if (rank > registers[index]) {
            registers[index] = (byte) rank;
        }
    }

    /** Folds {@code from} into {@code into}: afterwards {@code into} holds the union. Both of one size. */
    public static void merge(byte[] into, byte[] from) {
        if (into.length != from.length) {
            throw new IllegalArgumentException("cannot merge " + from.length + " registers into " + into.length);
        }
        for (int i = 0; i < into.length; i++) {
            if (from[i] > into[i]) {
                into[i] = from[i];
            }
        }
    }

    /** Whether no value was added. */
    public static boolean isEmpty(byte[] registers) {
        for (byte register : registers) {
            if (register != 0) {
                return false;
            }
        }
        return true;
    }

    /** The estimated number of distinct values added to {@code registers} (of {@code 2^lgK}); 0 when empty. */
    public static double estimate(byte[] registers, int lgK) {
        int q = 64 - lgK;
        int m = registers.length;
        int[] counts = new int[q + 2];
        for (byte register : registers) {
            counts[register]++;
        }
        if (counts[0] == m) {
            return 0;
        }
        double z = m * tau(1 - (double) counts[q + 1] / m);
        for (int k = q; k >= 1; k--) {
            z = 0.5 * (z + counts[k]);
        }
        z += m * sigma((double) counts[0] / m);
        return ALPHA_INFINITY * m * (double) m / z;
    }

    /** Ertl's sigma(x) = x + sum over k >= 1 of x^(2^k) 2^(k-1), for x in [0, 1). */
    private static double sigma(double x) {
        double y = 1;
        double z = x;
        while (true) {
            x *= x;
            double previous = z;
            z += x * y;
            y += y;
            if (z == previous) {
                return z;
            }
        }
    }

    /** Ertl's tau(x) = (1 - x - sum over k >= 1 of (1 - x^(2^-k))^2 2^-k) / 3, for x in [0, 1]. */
    private static double tau(double x) {
        if (x == 0 || x == 1) {
            return 0;
        }
        double y = 1;
        double z = 1 - x;
        while (true) {
            x = Math.sqrt(x);
            double previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
            if (z == previous) {
                return z / 3;
            }
        }
    }
}
