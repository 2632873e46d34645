package dev.quiver.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistinctEstimatorTest {
    @Test
    void repeatedValuesImplyTheirOwnCount() {
        // 25 nations among 75 000 customers: every nation was seen
        assertThat(DistinctEstimator.domainSize(25, 75_000)).isCloseTo(25, within(0.5));
    }

    @Test
    void mostlyNewValuesImplyALargerDomain() {
        // 262 144 lines drawing uniformly from 200 000 part keys hold about 145 500 distinct keys
        double expectedDistinct = 200_000 * -Math.expm1(-262_144 / 200_000.0);
        assertThat(DistinctEstimator.domainSize(Math.round(expectedDistinct), 262_144)).isCloseTo(200_000, within(200.0));
    }

    @Test
    void allDifferentValuesSayOnlyThatTheDomainIsLarge() {
        assertThat(DistinctEstimator.domainSize(1000, 1000)).isInfinite();
        assertThat(DistinctEstimator.domainSize(999, 1000)).isGreaterThan(100_000);
        assertThat(DistinctEstimator.domainSize(0, 1000)).isZero();
        assertThat(DistinctEstimator.domainSize(0, 0)).isZero();
    }

    @Test
    void aSampleGivesACountOnlyWhenItRepeatsItsValues() {
        assertThat(DistinctEstimator.fromSample(25, 10_000, 150_000)).isEqualTo(Estimate.inexact(25));
        assertThat(DistinctEstimator.fromSample(3, 10_000, 2)).isEqualTo(Estimate.inexact(2));
        // a sorted key column: a quarter of the sample is distinct, the table's count cannot be told
        assertThat(DistinctEstimator.fromSample(2_500, 10_000, 6_000_000)).isEqualTo(Estimate.absent());
        // the whole table was sampled
        assertThat(DistinctEstimator.fromSample(2_500, 10_000, 10_000)).isEqualTo(Estimate.inexact(2_500));
        assertThat(DistinctEstimator.fromSample(0, 0, 0)).isEqualTo(Estimate.exact(0));
    }
}
