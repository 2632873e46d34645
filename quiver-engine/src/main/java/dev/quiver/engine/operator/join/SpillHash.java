package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The spill partition of each row of a grace hash join, from the join's own key hash
 * ({@link KeyKernel}), so that build and probe rows of equal keys land in partitions of the same
 * number.
 *
 * <p>Those bits must be independent of the ones that already chose this input partition (the
 * {@link dev.quiver.engine.operator.exchange.PartitionHash partition hash} of the repartition
 * below, a different function with another seed), of the ones the hash table indexes with (the
 * low bits of the same key hash), and of the ones any earlier split level used: each level
 * re-mixes the key hash with its own salt and takes the top bits.
 *
 * <p>Rows with a NULL key never match, so any partition may hold them: each is in exactly one,
 * and the outer and anti join types emit it once from there. They are dealt out in turn rather
 * than sent to one fixed partition, which would hold every NULL-key row of the input at every
 * level and so could never be split small enough (a LEFT JOIN on a mostly NULL foreign key).
 *
 * <p>Used by one thread (one join partition).
 */
final class SpillHash {
    /** Spill partitions per split: the build side shrinks eightfold per level. */
    static final int FAN_OUT = 8;
    private static final int BITS = Integer.numberOfTrailingZeros(FAN_OUT);
    private static final long LEVEL_SALT = 0x6A09E667F3BCC909L;
    private static final int CHUNK = 4096;

    private final List<PhysicalExpr> keys;
    private final List<KeyKernel> kernels;
    private final long[] hashes = new long[CHUNK];
    private final boolean[] nulls = new boolean[CHUNK];
    /** The partition the next NULL-key row goes to. */
    private int nextNullPartition;

    SpillHash(List<PhysicalExpr> keys, List<KeyKernel> kernels) {
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.kernels = List.copyOf(requireNonNull(kernels, "kernels is null"));
    }

    /** The partition in {@code [0, FAN_OUT)} of each row of {@code batch} at split {@code level} (0 for the first split). */
    int[] partitions(VectorSchemaRoot batch, int level, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int[] partitions = new int[rows];
        List<FieldVector> owned = new ArrayList<>();
        try {
            List<FieldVector> keyVectors = KeyKernel.keyVectors(keys, batch, allocator, owned);
            boolean[] mayHaveNulls = KeyKernel.mayHaveNulls(keyVectors);
            long salt = LEVEL_SALT * (level + 1);
            for (int start = 0; start < rows; start += CHUNK) {
                int count = Math.min(CHUNK, rows - start);
                KeyKernel.hashRows(keyVectors, kernels, mayHaveNulls, start, count, hashes, nulls);
                for (int i = 0; i < count; i++) {
                    if (nulls[i]) {
                        partitions[start + i] = nextNullPartition;
                        nextNullPartition = (nextNullPartition + 1) & (FAN_OUT - 1);
                    } else {
                        partitions[start + i] = (int) (KeyKernel.mix(hashes[i] ^ salt) >>> (Long.SIZE - BITS));
                    }
                }
            }
        } finally {
            owned.forEach(FieldVector::close);
        }
        return partitions;
    }
}
