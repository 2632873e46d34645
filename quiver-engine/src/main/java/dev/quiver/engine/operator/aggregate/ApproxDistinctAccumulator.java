package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.stats.HyperLogLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * APPROX_COUNT_DISTINCT: the number of distinct non-NULL values of a group, estimated with
 * HyperLogLog ({@value #LG_K}: 4096 registers, a standard error of about 1.6%). Values are hashed as
 * GROUP BY hashes keys ({@link KeyColumn}), so the values it tells apart are those COUNT(DISTINCT)
 * tells apart (0.0 and -0.0 are one value, NaN another).
 *
 * <p>A group starts <i>sparse</i>: an exact set of its values' 64-bit hashes, whose size is the
 * answer (exact but for hash collisions), until it holds more than {@value #SPARSE_LIMIT} hashes;
 * then it becomes the registers. So a small group costs a few bytes, not 4 KiB, and counts exactly.
 *
 * <p>The partial state is one VARBINARY per group: {@code 'S'} and the hashes (8 bytes each,
 * little-endian), or {@code 'D'} and the registers. Merging is a union, so the result does not
 * depend on how rows were split between partial aggregates, except where a union of sparse sets
 * outgrows the limit at another point.
 */
final class ApproxDistinctAccumulator extends SketchAccumulator {
    static final int LG_K = 12;
    /** Hashes a sparse group holds at most: 2 KiB of hashes, half the registers' 4 KiB. */
    static final int SPARSE_LIMIT = 256;
    private static final long SEED = 0x3C6EF372FE94F82BL;
    private static final byte SPARSE = 'S';
    private static final byte DENSE = 'D';
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final KeyColumn values;
    /** Per group: an open-addressing set of hashes (0 marks a free slot), null once the group is dense or before its first value. */
    private long[][] sets = new long[0][];
    private int[] sizes = new int[0];
    /** Per group: the registers, once its set outgrew {@link #SPARSE_LIMIT}. */
    private byte[][] registers = new byte[0][];
    private long[] hashes = new long[0];

    ApproxDistinctAccumulator(ArrowType valueType) {
        this.values = KeyColumn.create(valueType);
    }

    @Override
    protected void grow(int newCapacity) {
        sets = Arrays.copyOf(sets, newCapacity);
        sizes = Arrays.copyOf(sizes, newCapacity);
        registers = Arrays.copyOf(registers, newCapacity);
        super.grow(newCapacity);
    }

    @Override
    public int bytesPerGroup() {
        return 20;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        FieldVector arg = inputs.get(0);
        boolean[] nulls = scratch().nulls(arg, rows);
        if (hashes.length < rows) {
            hashes = new long[rows];
        }
        Arrays.fill(hashes, 0, rows, SEED);
        values.load(arg, rows);
        values.hash(rows, hashes);
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                add(groupIds[i], Hashing.finish(hashes[i]));
            }
        }
    }

    @Override
    protected void merge(int g, byte[] sketch) {
        if (sketch[0] == DENSE) {
            HyperLogLog.merge(dense(g), Arrays.copyOfRange(sketch, 1, sketch.length));
        } else {
            for (int at = 1; at < sketch.length; at += Long.BYTES) {
                add(g, (long) LONGS.get(sketch, at));
            }
        }
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        BigIntVector vector = (BigIntVector) Columns.newVector(field, count, 0, allocator);
        for (int i = 0; i < count; i++) {
            int g = from + i;
            vector.set(i, registers[g] != null ? Math.round(HyperLogLog.estimate(registers[g], LG_K)) : sizes[g]);
        }
        vector.setValueCount(count);
        return vector;
    }

    private void add(int g, long hash) {
        if (registers[g] != null) {
            HyperLogLog.add(registers[g], LG_K, hash);
            return;
        }
        long[] set = sets[g];
        if (set == null) {
            set = new long[8];
            sets[g] = set;
            held(ARRAY_HEADER_BYTES + set.length * (long) Long.BYTES);
        }
        long key = hash == 0 ? 1 : hash;
        int mask = set.length - 1;
        int slot = (int) key & mask;
        while (set[slot] != 0) {
            if (set[slot] == key) {
                return;
            }
            slot = (slot + 1) & mask;
        }
        set[slot] = key;
        if (++sizes[g] > SPARSE_LIMIT) {
            dense(g);
        } else if (sizes[g] * 2 > set.length) {
            rehash(g, set.length * 2);
        }
    }

    private void rehash(int g, int capacity) {
        long[] old = sets[g];
        long[] set = new long[capacity];
        int mask = capacity - 1;
        for (long key : old) {
            if (key != 0) {
                int slot = (int) key & mask;
                while (set[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                set[slot] = key;
            }
        }
        sets[g] = set;
        held((capacity - old.length) * (long) Long.BYTES);
    }

    /** The group's registers, made from its set of hashes if it is still sparse. */
    private byte[] dense(int g) {
        if (registers[g] != null) {
            return registers[g];
        }
        byte[] dense = HyperLogLog.registers(LG_K);
        held(ARRAY_HEADER_BYTES + dense.length);
        long[] set = sets[g];
        if (set != null) {
            for (long key : set) {
                if (key != 0) {
                    HyperLogLog.add(dense, LG_K, key);
                }
            }
            held(-(ARRAY_HEADER_BYTES + set.length * (long) Long.BYTES));
            sets[g] = null;
        }
        registers[g] = dense;
        sizes[g] = 0;
        return dense;
    }

    @Override
    protected byte[] serialize(int g) {
        if (registers[g] != null) {
            byte[] bytes = new byte[1 + registers[g].length];
            bytes[0] = DENSE;
            System.arraycopy(registers[g], 0, bytes, 1, registers[g].length);
            return bytes;
        }
        byte[] bytes = new byte[1 + sizes[g] * Long.BYTES];
        bytes[0] = SPARSE;
        int at = 1;
        if (sets[g] != null) {
            for (long key : sets[g]) {
                if (key != 0) {
                    LONGS.set(bytes, at, key);
                    at += Long.BYTES;
                }
            }
        }
        return bytes;
    }
}
