package dev.quiver.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** HyperLogLog's estimate (Ertl's improved estimator) across the range, and unions. */
class HyperLogLogTest {
    private static final int LG_K = 12;

    @Test
    void estimatesAreWithinFourStandardErrorsFromFewValuesToMillions() {
        SplittableRandom random = new SplittableRandom(20261202);
        double error = HyperLogLog.standardError(LG_K);
        for (int distinct : new int[] {1, 5, 100, 1_000, 4_096, 10_000, 20_000, 50_000, 1_000_000}) {
            byte[] registers = HyperLogLog.registers(LG_K);
            long[] values = random.longs(distinct).toArray();
            for (int repeat = 0; repeat < 3; repeat++) {
                for (long value : values) {
                    HyperLogLog.add(registers, LG_K, mix(value));
                }
            }
            assertThat(HyperLogLog.estimate(registers, LG_K)).as("%s distinct values", distinct)
                    .isCloseTo(distinct, within(Math.max(0.5, 4 * error * distinct)));
        }
    }

    @Test
    void anEmptySketchEstimatesZero() {
        byte[] registers = HyperLogLog.registers(LG_K);
        assertThat(HyperLogLog.isEmpty(registers)).isTrue();
        assertThat(HyperLogLog.estimate(registers, LG_K)).isZero();
    }

    @Test
    void aMergeIsTheSketchOfTheUnion() {
        byte[] left = HyperLogLog.registers(LG_K);
        byte[] right = HyperLogLog.registers(LG_K);
        byte[] both = HyperLogLog.registers(LG_K);
        for (long v = 0; v < 30_000; v++) {
            HyperLogLog.add(v < 20_000 ? left : right, LG_K, mix(v));
            HyperLogLog.add(both, LG_K, mix(v));
            if (v >= 10_000 && v < 20_000) {
                HyperLogLog.add(right, LG_K, mix(v));
            }
        }
        HyperLogLog.merge(left, right);
        assertThat(left).isEqualTo(both);
        assertThatThrownBy(() -> HyperLogLog.merge(left, HyperLogLog.registers(10))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HyperLogLog.registers(3)).isInstanceOf(IllegalArgumentException.class);
    }

    /** MurmurHash3's finalizer: the well-mixed hash the sketch expects. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
