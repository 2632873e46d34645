package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.parquet.ParquetDistinctCounts.Part;
import dev.quiver.engine.stats.Estimate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParquetDistinctCountsTest {
    private static Part part(long distinct, long rows, Object min, Object max) {
        return new Part(distinct, rows, Optional.of(min), Optional.of(max));
    }

    private static long value(Estimate estimate) {
        assertThat(estimate.isKnown()).isTrue();
        assertThat(estimate.isExact()).as("estimates are never exact").isFalse();
        return estimate.value();
    }

    @Test
    void sortedKeysAddUpOverDisjointRowGroups() {
        // lineitem's l_orderkey: ~65 000 orders in each 262 144-line row group, one order split at each boundary
        List<Part> parts = new ArrayList<>();
        for (long g = 0; g < 24; g++) {
            parts.add(part(65_536, 262_144, g * 250_000, (g + 1) * 250_000));
        }
        long estimate = value(ParquetDistinctCounts.estimate(parts, true, 24 * 262_144L, 6_000_000));
        assertThat(estimate).isBetween(1_500_000L, 1_700_000L);
    }

    @Test
    void smallDomainsSharedByEveryRowGroupCountOnce() {
        List<Part> parts = List.of(part(25, 75_000, 0L, 24L), part(25, 75_000, 0L, 24L));
        assertThat(value(ParquetDistinctCounts.estimate(parts, true, 150_000, 25))).isEqualTo(25);
        List<Part> strings = List.of(part(5, 75_000, "AUTOMOBILE", "MACHINERY"), part(5, 75_000, "AUTOMOBILE", "MACHINERY"));
        assertThat(value(ParquetDistinctCounts.estimate(strings, true, 150_000, Long.MAX_VALUE))).isEqualTo(5);
    }

    @Test
    void overlappingUniqueRowGroupsAddUp() {
        // unique values in every row group, ranges interleaved (hashed ids): nothing repeats
        List<Part> parts = List.of(part(1000, 1000, "a", "z"), part(1000, 1000, "b", "y"), part(1000, 1000, "c", "x"));
        assertThat(value(ParquetDistinctCounts.estimate(parts, true, 3000, Long.MAX_VALUE))).isEqualTo(3000);
    }

    @Test
    void theValueRangeAndTheRowsBoundTheEstimate() {
        List<Part> parts = List.of(part(1000, 1000, 1L, 1000L), part(1000, 1000, 1001L, 2000L));
        assertThat(value(ParquetDistinctCounts.estimate(parts, true, 2000, 1500))).isEqualTo(1500);
        // a row group without a dictionary: only the range is left
        assertThat(value(ParquetDistinctCounts.estimate(parts, false, 2000, 1500))).isEqualTo(1500);
        assertThat(ParquetDistinctCounts.estimate(parts, false, 2000, Long.MAX_VALUE)).isEqualTo(Estimate.absent());
        assertThat(ParquetDistinctCounts.estimate(List.of(), true, 0, Long.MAX_VALUE)).isEqualTo(Estimate.exact(0));
    }

    @Test
    void valuesBetweenCountsIntegersDatesAndDecimalsInclusively() {
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(0L), Optional.of(24L))).isEqualTo(25);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(8035), Optional.of(10_561))).isEqualTo(2527);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(new BigDecimal("1.00")), Optional.of(new BigDecimal("50.00"))))
                .isEqualTo(4901);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(false), Optional.of(true))).isEqualTo(2);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(Long.MIN_VALUE), Optional.of(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of(1.5), Optional.of(2.5))).isEqualTo(Long.MAX_VALUE);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.of("a"), Optional.of("b"))).isEqualTo(Long.MAX_VALUE);
        assertThat(ParquetDistinctCounts.valuesBetween(Optional.empty(), Optional.of(3L))).isEqualTo(Long.MAX_VALUE);
    }
}
