package dev.quiver.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ResourcesExhaustedException;
import org.junit.jupiter.api.Test;

class MemoryPoolTest {
    @Test
    void growBeyondTheLimitFailsNamingTheConsumerAndHoldsNothingMore() {
        MemoryPool pool = new MemoryPool(100);
        try (MemoryReservation reservation = pool.newReservation("HashJoinExec[partition=0]")) {
            reservation.grow(60);
            assertThatThrownBy(() -> reservation.grow(41))
                    .isInstanceOf(ResourcesExhaustedException.class)
                    .hasMessageContaining("HashJoinExec[partition=0]");
            assertThat(reservation.size()).isEqualTo(60);
            assertThat(pool.used()).isEqualTo(60);
        }
        assertThat(pool.used()).isZero();
        assertThat(pool.peak()).isEqualTo(60);
    }

    @Test
    void spillableReservationsShareThePoolFairly() {
        MemoryPool pool = new MemoryPool(100);
        try (MemoryReservation first = pool.newSpillableReservation("SortExec[partition=0]");
                MemoryReservation second = pool.newSpillableReservation("SortExec[partition=1]")) {
            assertThat(first.tryGrow(51)).isFalse();
            assertThat(first.tryGrow(50)).isTrue();
            assertThat(second.headroom()).isEqualTo(50);
            assertThat(second.tryGrow(50)).isTrue();
            assertThat(pool.used()).isEqualTo(100);
        }
        assertThat(pool.used()).isZero();
    }

    @Test
    void theFairShareIsOfWhatUnspillableReservationsLeave() {
        MemoryPool pool = new MemoryPool(100);
        try (MemoryReservation unspillable = pool.newReservation("HashJoinExec[partition=0]");
                MemoryReservation first = pool.newSpillableReservation("SortExec[partition=0]");
                MemoryReservation second = pool.newSpillableReservation("SortExec[partition=1]")) {
            unspillable.grow(40);
            assertThat(first.headroom()).isEqualTo(30);
            assertThat(first.tryGrow(31)).isFalse();
            assertThat(first.tryGrow(30)).isTrue();
            // what the first holds is spillable: it does not shrink the share of either
            assertThat(second.headroom()).isEqualTo(30);
            assertThat(second.tryGrow(30)).isTrue();
            first.shrink(30);
            assertThat(first.headroom()).isEqualTo(30);
        }
        assertThat(pool.used()).isZero();
    }

    @Test
    void headroomIsNoMoreThanThePoolHasFree() {
        MemoryPool pool = new MemoryPool(100);
        try (MemoryReservation alone = pool.newSpillableReservation("SortExec[partition=0]")) {
            // a hard grow (a merge's cursors) may pass the share; headroom never goes negative
            alone.grow(100);
            assertThat(alone.headroom()).isZero();
            alone.shrink(100);
            try (MemoryReservation other = pool.newReservation("WindowExec[partition=0]")) {
                other.grow(90);
                assertThat(alone.headroom()).isEqualTo(10);
                assertThat(other.headroom()).isEqualTo(10);
            }
        }
    }

    @Test
    void aClosedSpillableReservationNoLongerCountsInTheShare() {
        MemoryPool pool = new MemoryPool(100);
        try (MemoryReservation kept = pool.newSpillableReservation("SortExec[partition=0]")) {
            MemoryReservation closed = pool.newSpillableReservation("SortExec[partition=1]");
            assertThat(kept.headroom()).isEqualTo(50);
            closed.close();
            assertThat(kept.headroom()).isEqualTo(100);
            assertThatThrownBy(() -> closed.tryGrow(1)).isInstanceOf(IllegalStateException.class);
        }
    }
}
