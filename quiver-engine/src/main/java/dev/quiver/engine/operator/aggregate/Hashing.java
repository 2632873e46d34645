package dev.quiver.engine.operator.aggregate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hash of group keys inside aggregation tables: an xxHash64-style round per key column and a
 * murmur3 finalizer. Its seed differs from the partition hash's, so that the rows one partition
 * receives (which share partition-hash bits) still spread over the whole table.
 */
final class Hashing {
    static final long SEED = 0x6A09E667F3BCC909L;
    static final long NULL_HASH = 0x1F83D9ABFB41BD6BL;
    private static final long PRIME_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME_2 = 0xC2B2AE3D27D4EB4FL;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Hashing() {}

    /** Folds one column's value hash into a row's running hash. */
    static long combine(long hash, long value) {
        return Long.rotateLeft(hash + value * PRIME_2, 31) * PRIME_1;
    }

    /** The murmur3 64-bit finalizer: every input bit affects every output bit. */
    static long finish(long hash) {
        hash ^= hash >>> 33;
        hash *= 0xFF51AFD7ED558CCDL;
        hash ^= hash >>> 33;
        hash *= 0xC4CEB9FE1A85EC53L;
        hash ^= hash >>> 33;
        return hash;
    }

    static long hashBytes(byte[] bytes, int start, int length) {
        long hash = PRIME_1 + length;
        int i = start;
        int end = start + length;
        for (; i + 8 <= end; i += 8) {
            hash = combine(hash, (long) LONGS.get(bytes, i));
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (bytes[i] & 0xFFL) << shift;
        }
        return finish(combine(hash, tail));
    }
}
