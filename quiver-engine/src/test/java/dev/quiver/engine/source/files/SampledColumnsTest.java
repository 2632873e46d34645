package dev.quiver.engine.source.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SampledColumnsTest {
    @Test
    void sortedColumnsScaleByTheirShareOfDistinctValues() {
        // lineitem-like: 4 lines per order, parts at 8 places of a table sorted on the key
        SampledColumns sample = new SampledColumns(1);
        for (long p = 0; p < 8; p++) {
            long first = p * 1_000_000;
            sample.add(0, LongStream.range(0, 2000).map(i -> first + i / 4).boxed().toList());
        }
        Estimate estimate = sample.distinct(0, 6_000_000);
        assertThat(estimate.isExact()).isFalse();
        assertThat(estimate.value()).isEqualTo(1_500_000);
    }

    @Test
    void overlappingPartsShareOneDomain() {
        Random random = new Random(7);
        SampledColumns sample = new SampledColumns(2);
        for (int p = 0; p < 8; p++) {
            sample.add(0, random.longs(2000, 0, 10_000).boxed().toList()); // 10 000 suppliers
            sample.add(1, random.longs(2000, 0, 25).boxed().toList()); // 25 nations
        }
        assertThat(sample.distinct(0, 6_000_000).value()).isBetween(9_000L, 11_000L);
        assertThat(sample.distinct(1, 6_000_000)).isEqualTo(Estimate.inexact(25));
    }

    @Test
    void constantAndUniqueColumns() {
        SampledColumns sample = new SampledColumns(2);
        Random random = new Random(3);
        for (int p = 0; p < 4; p++) {
            sample.add(0, new ArrayList<>(Collections.nCopies(2000, "same")));
            sample.add(1, random.longs(2000).boxed().toList()); // hashed ids: all different, ranges overlap
        }
        assertThat(sample.distinct(0, 1_000_000)).isEqualTo(Estimate.inexact(1));
        assertThat(sample.distinct(1, 1_000_000)).isEqualTo(Estimate.inexact(1_000_000));
    }

    @Test
    void onePartCountsOnlyRepeatingColumnsAndAnEmptyTableIsExact() {
        SampledColumns sample = new SampledColumns(2);
        sample.add(0, LongStream.range(0, 2000).map(i -> i / 4).boxed().toList());
        sample.add(1, LongStream.range(0, 2000).map(i -> i % 5).boxed().toList());
        assertThat(sample.distinct(0, 100_000)).isEqualTo(Estimate.absent());
        assertThat(sample.distinct(1, 100_000)).isEqualTo(Estimate.inexact(5));
        assertThat(sample.distinct(1, 0)).isEqualTo(Estimate.exact(0));
        assertThat(new SampledColumns(1).distinct(0, 10)).isEqualTo(Estimate.absent());
        assertThat(sample.distinct(0, 500)).isEqualTo(Estimate.inexact(500));
    }
}
