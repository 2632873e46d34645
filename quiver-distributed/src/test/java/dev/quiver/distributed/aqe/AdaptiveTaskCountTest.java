package dev.quiver.distributed.aqe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.plan.TaskCountHint;
import org.junit.jupiter.api.Test;

class AdaptiveTaskCountTest {
    private static final long MIB = 1 << 20;

    @Test
    void followsTheFormulaAndSaysHow() {
        // ceil(ceil(100 MiB / 16 MiB) / 2) = ceil(7 / 2) = 4
        TaskCountHint.Desired hint = AdaptiveTaskCount.desired(100 * MIB, 16 * MIB, 2, 8);
        assertThat(hint.taskCount()).isEqualTo(4);
        assertThat(hint.origin()).isEqualTo("cost 100.0 MiB / 16.0 MiB per partition (distributed.dynamic_bytes_per_partition) = 7 partitions / P=2 → 4 tasks");
    }

    @Test
    void clampsToOneAndToTheLimit() {
        assertThat(AdaptiveTaskCount.desired(0, 16 * MIB, 4, 8).taskCount()).isEqualTo(1);
        assertThat(AdaptiveTaskCount.desired(0, 16 * MIB, 4, 8).origin()).contains("0 partitions", "at least 1 task");
        assertThat(AdaptiveTaskCount.desired(1, 16 * MIB, 4, 8).taskCount()).isEqualTo(1);
        TaskCountHint.Desired clamped = AdaptiveTaskCount.desired(10_000 * MIB, 16 * MIB, 2, 8);
        assertThat(clamped.taskCount()).isEqualTo(8);
        assertThat(clamped.origin()).contains("→ 313 tasks, clamped to the limit of 8 tasks per stage");
        assertThat(AdaptiveTaskCount.desired(Long.MAX_VALUE, 1, 1, 64).taskCount()).isEqualTo(64);
    }

    @Test
    void growsAsTheBudgetPerPartitionShrinks() {
        int previous = 0;
        for (long budget = 64 * MIB; budget >= MIB; budget /= 2) {
            int tasks = AdaptiveTaskCount.desired(256 * MIB, budget, 2, 1000).taskCount();
            assertThat(tasks).isGreaterThan(previous);
            previous = tasks;
        }
        assertThat(previous).isEqualTo(128);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> AdaptiveTaskCount.desired(1, 0, 1, 1)).hasMessageContaining("distributed.dynamic_bytes_per_partition");
        assertThatThrownBy(() -> AdaptiveTaskCount.desired(-1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
