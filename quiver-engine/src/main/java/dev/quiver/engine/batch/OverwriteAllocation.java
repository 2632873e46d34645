package dev.quiver.engine.batch;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Room in a fixed-width vector for values the caller writes, every one of them, right after.
 *
 * <p>Arrow's {@code allocateNew} zeroes the value buffer as well as the validity bits, and a gather
 * or a concatenation then overwrites every value (perf put that zeroing at 7% of the query threads'
 * samples over TPC-H q3, 4, 5, 9, 10, 18 and 21 at SF 1, docs/performance.md). Here only the validity
 * bits are zeroed; the values stay as the allocator left them until the caller writes them. A
 * caller that leaves a value unwritten (an outer join's padding row) must write a zero there itself.
 */
public final class OverwriteAllocation {
    /** Below this many value bytes the zeroing is too cheap to be worth a second allocation. */
    private static final long MIN_BYTES = 4096;

    private OverwriteAllocation() {}

    /**
     * Allocates {@code vector} (empty, not yet allocated) for {@code count} values: validity bits
     * zeroed, values not; its value count is left at 0 for the caller to set once written.
     */
    public static void allocate(BaseFixedWidthVector vector, int count) {
        int width = vector.getTypeWidth();
        long dataBytes = (long) count * width;
        if (vector instanceof BitVector || width <= 0 || count < 2 || dataBytes < MIN_BYTES) {
            vector.allocateNew(Math.max(count, 1));
            return;
        }
        BufferAllocator allocator = vector.getAllocator();
        try (ArrowBuf validity = allocator.buffer(BitVectorHelper.getValidityBufferSize(count));
                ArrowBuf data = allocator.buffer(dataBytes)) {
            validity.setZero(0, validity.capacity());
            // A null count strictly between 0 and the length makes Arrow keep the given validity
            // buffer rather than allocate an all-valid or all-null one (and the vector counts its
            // nulls from the bits, not from this node).
            vector.loadFieldBuffers(new ArrowFieldNode(count, 1), List.of(validity, data));
        }
        vector.setValueCount(0);
    }
}
