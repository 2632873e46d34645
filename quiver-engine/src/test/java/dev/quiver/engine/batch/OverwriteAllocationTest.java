package dev.quiver.engine.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OverwriteAllocationTest {
    /** Validity bits start cleared over memory the pool hands out dirty; the vector holds count values and reports none yet. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 100, 511, 512, 513, 4096, 100_000})
    void clearsTheValidityBitsOnly(int count) {
        try (BufferAllocator allocator = new RootAllocator()) {
            for (BaseFixedWidthVector vector : new BaseFixedWidthVector[] {new IntVector("i", allocator), new BigIntVector("l", allocator),
                    new DecimalVector("d", allocator, 38, 2), new BitVector("b", allocator)}) {
                try (vector) {
                    TakeTest.dirtyPooledMemory(allocator);
                    OverwriteAllocation.allocate(vector, count);
                    assertThat(vector.getValueCount()).isZero();
                    assertThat(vector.getValueCapacity()).isGreaterThanOrEqualTo(count);
                    vector.setValueCount(count);
                    assertThat(vector.getNullCount()).as("%s of %d", vector.getName(), count).isEqualTo(count);
                    if (vector instanceof BigIntVector longs) {
                        for (int i = 0; i < count; i++) {
                            longs.set(i, i * 3L);
                        }
                        assertThat(longs.getNullCount()).isZero();
                        assertThat(longs.get(count - 1)).isEqualTo((count - 1) * 3L);
                    }
                }
            }
        }
    }
}
