package dev.quiver.engine.operator.join;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Hashing and equality of one join-key column, specialised by type, reading Arrow buffers
 * directly so that the hot loops neither box nor allocate. Values in NULL slots are hashed as
 * whatever bytes they hold: callers skip rows whose key has a NULL ({@link #hashRows}).
 *
 * <p>The hash seed differs from the partition hash's, so that a partition of a hash-partitioned
 * input does not fill only a fraction of the table's buckets.
 */
abstract class KeyKernel {
    /** Seed of the join hash table; deliberately unrelated to the partition hash. */
    static final long SEED = 0x3C6EF372FE94F82BL;
    private static final long COMBINE = 0x9E3779B97F4A7C15L;

    /** Mixes the keys of rows {@code [start, start + count)} into {@code hashes[0..count)}. */
    abstract void hash(FieldVector vector, int start, int count, long[] hashes, boolean first);

    /**
     * Keeps the pairs {@code (buildRows[i], probeRows[i])} whose keys are equal, moving them to the
     * front in order, and returns how many remain. Both rows are known to have non-NULL keys.
     */
    abstract int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count);

    /** The kernel for a key of {@code type}, or NOT_SUPPORTED. */
    static KeyKernel forType(ArrowType type) {
        if (type instanceof ArrowType.Int i) {
            return switch (i.getBitWidth()) {
                case 64 -> LongKernel.INSTANCE;
                case 32 -> IntKernel.INSTANCE;
                default -> new NarrowKernel(i.getBitWidth() / 8);
            };
        }
        if (type instanceof ArrowType.Date date) {
            return date.getUnit() == DateUnit.DAY ? IntKernel.INSTANCE : LongKernel.INSTANCE;
        }
        if (type instanceof ArrowType.Timestamp) {
            return LongKernel.INSTANCE;
        }
        if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
            return DecimalKernel.INSTANCE;
        }
        if (type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() == FloatingPointPrecision.DOUBLE) {
            return DoubleKernel.INSTANCE;
        }
        if (type instanceof ArrowType.Bool) {
            return BoolKernel.INSTANCE;
        }
        if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.Binary) {
            return VarWidthKernel.INSTANCE;
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "join keys of type " + QuiverTypes.sqlName(type) + " are not supported");
    }

    /**
     * Hashes rows {@code [start, start + count)} over all key columns into {@code hashes}, and
     * sets {@code nulls[i]} for rows where any key is NULL (they never match).
     */
    static void hashRows(List<FieldVector> keys, List<KeyKernel> kernels, int start, int count, long[] hashes, boolean[] nulls) {
        hashRows(keys, kernels, mayHaveNulls(keys), start, count, hashes, nulls);
    }

    /**
     * The key columns of {@code batch}: a plain column as it is, any other key evaluated into a
     * vector added to {@code owned}, which the caller closes (also when this throws).
     */
    static List<FieldVector> keyVectors(List<PhysicalExpr> keys, VectorSchemaRoot batch, BufferAllocator allocator, List<FieldVector> owned) {
        List<FieldVector> vectors = new ArrayList<>(keys.size());
        for (PhysicalExpr key : keys) {
            if (key instanceof ColumnExpr column) {
                vectors.add(batch.getVector(column.index()));
            } else {
                FieldVector evaluated = key.evaluate(batch, allocator);
                owned.add(evaluated);
                vectors.add(evaluated);
            }
        }
        return vectors;
    }

    /** Which key columns have NULLs (counting them scans the whole vector: do it once per vector). */
    static boolean[] mayHaveNulls(List<FieldVector> keys) {
        boolean[] result = new boolean[keys.size()];
        for (int k = 0; k < keys.size(); k++) {
            result[k] = keys.get(k).getNullCount() > 0;
        }
        return result;
    }

    /** As {@link #hashRows(List, List, int, int, long[], boolean[])}, looking for NULLs only in the flagged keys. */
    static void hashRows(List<FieldVector> keys, List<KeyKernel> kernels, boolean[] mayHaveNulls, int start, int count,
            long[] hashes, boolean[] nulls) {
        Arrays.fill(nulls, 0, count, false);
        for (int k = 0; k < keys.size(); k++) {
            FieldVector key = keys.get(k);
            kernels.get(k).hash(key, start, count, hashes, k == 0);
            if (mayHaveNulls[k]) {
                for (int i = 0; i < count; i++) {
                    if (key.isNull(start + i)) {
                        nulls[i] = true;
                    }
                }
            }
        }
    }

    /** The murmur3 64-bit finalizer: every input bit affects every output bit. */
    static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB9FE1A85EC53L;
        x ^= x >>> 33;
        return x;
    }

    static long combine(long previous, long value, boolean first) {
        return first ? mix(value ^ SEED) : mix(previous * COMBINE + value);
    }

    private static final class LongKernel extends KeyKernel {
        static final LongKernel INSTANCE = new LongKernel();

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            long data = checkedAddress(vector, start + count, 8);
            for (int i = 0; i < count; i++) {
                hashes[i] = combine(hashes[i], MemoryUtil.getLong(data + ((long) (start + i) << 3)), first);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            if (count == 0) {
                return 0;
            }
            long b = checkedAddress(build, maxRow(buildRows, count) + 1, 8);
            long p = checkedAddress(probe, maxRow(probeRows, count) + 1, 8);
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                if (MemoryUtil.getLong(b + ((long) br << 3)) == MemoryUtil.getLong(p + ((long) pr << 3))) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    private static final class IntKernel extends KeyKernel {
        static final IntKernel INSTANCE = new IntKernel();

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            long data = checkedAddress(vector, start + count, 4);
            for (int i = 0; i < count; i++) {
                hashes[i] = combine(hashes[i], MemoryUtil.getInt(data + ((long) (start + i) << 2)), first);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            if (count == 0) {
                return 0;
            }
            long b = checkedAddress(build, maxRow(buildRows, count) + 1, 4);
            long p = checkedAddress(probe, maxRow(probeRows, count) + 1, 4);
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                if (MemoryUtil.getInt(b + ((long) br << 2)) == MemoryUtil.getInt(p + ((long) pr << 2))) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    /**
     * The address of {@code vector}'s values after checking that its data buffer holds {@code rows}
     * values of {@code width} bytes: the 4- and 8-byte kernels then read by address, as ArrowBuf's
     * per-read checks cost about as much as the hash or comparison they feed.
     */
    private static long checkedAddress(FieldVector vector, int rows, int width) {
        ArrowBuf data = vector.getDataBuffer();
        if ((long) rows * width > data.capacity()) {
            throw new IndexOutOfBoundsException(rows + " join keys of " + width + " bytes beyond a buffer of " + data.capacity() + " bytes");
        }
        return data.memoryAddress();
    }

    /** The largest of {@code rows[0..count)} (0 if none), to check them all against a buffer at once. */
    private static int maxRow(int[] rows, int count) {
        int max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, rows[i]);
        }
        return max;
    }

    /** TINYINT and SMALLINT keys: rare, so one kernel reads either width. */
    private static final class NarrowKernel extends KeyKernel {
        private final int width;

        NarrowKernel(int width) {
            this.width = width;
        }

        private long read(ArrowBuf data, int row) {
            return width == 1 ? data.getByte(row) : data.getShort((long) row * width);
        }

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < count; i++) {
                hashes[i] = combine(hashes[i], read(data, start + i), first);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            ArrowBuf b = build.getDataBuffer();
            ArrowBuf p = probe.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                if (read(b, br) == read(p, pr)) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    /** DECIMAL(p, s) with both sides of one type: equal values have equal 128-bit unscaled values. */
    private static final class DecimalKernel extends KeyKernel {
        static final DecimalKernel INSTANCE = new DecimalKernel();

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < count; i++) {
                long offset = (long) (start + i) << 4;
                long low = data.getLong(offset);
                long high = data.getLong(offset + 8);
                hashes[i] = combine(combine(hashes[i], low, first), high, false);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            ArrowBuf b = build.getDataBuffer();
            ArrowBuf p = probe.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                long bo = (long) br << 4;
                long po = (long) pr << 4;
                if (b.getLong(bo) == p.getLong(po) && b.getLong(bo + 8) == p.getLong(po + 8)) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    /** DOUBLE keys compare as SQL does: {@code -0.0 = 0.0}, and NaN equals NaN (as in DuckDB and PostgreSQL). */
    private static final class DoubleKernel extends KeyKernel {
        static final DoubleKernel INSTANCE = new DoubleKernel();

        private static long canonicalBits(double value) {
            // doubleToLongBits folds every NaN into one; adding 0.0 turns -0.0 into 0.0
            return Double.doubleToLongBits(value + 0.0);
        }

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < count; i++) {
                hashes[i] = combine(hashes[i], canonicalBits(data.getDouble((long) (start + i) << 3)), first);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            ArrowBuf b = build.getDataBuffer();
            ArrowBuf p = probe.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                if (canonicalBits(b.getDouble((long) br << 3)) == canonicalBits(p.getDouble((long) pr << 3))) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    private static final class BoolKernel extends KeyKernel {
        static final BoolKernel INSTANCE = new BoolKernel();

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < count; i++) {
                hashes[i] = combine(hashes[i], BitVectorHelper.get(data, start + i), first);
            }
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            ArrowBuf b = build.getDataBuffer();
            ArrowBuf p = probe.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                if (BitVectorHelper.get(b, br) == BitVectorHelper.get(p, pr)) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }

    /** VARCHAR and VARBINARY: hashed eight bytes at a time, compared bytewise. */
    private static final class VarWidthKernel extends KeyKernel {
        static final VarWidthKernel INSTANCE = new VarWidthKernel();

        @Override
        void hash(FieldVector vector, int start, int count, long[] hashes, boolean first) {
            ArrowBuf offsets = vector.getOffsetBuffer();
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < count; i++) {
                long row = start + i;
                int from = offsets.getInt(row << 2);
                int to = offsets.getInt((row + 1) << 2);
                hashes[i] = combine(hashes[i], hashBytes(data, from, to), first);
            }
        }

        private static long hashBytes(ArrowBuf data, long from, long to) {
            long h = to - from;
            long position = from;
            for (; position + 8 <= to; position += 8) {
                h = mix(h ^ data.getLong(position)) * COMBINE;
            }
            long tail = 0;
            for (; position < to; position++) {
                tail = (tail << 8) | (data.getByte(position) & 0xFF);
            }
            return h ^ tail;
        }

        @Override
        int retainEqual(FieldVector build, FieldVector probe, int[] buildRows, int[] probeRows, int count) {
            ArrowBuf bo = build.getOffsetBuffer();
            ArrowBuf bd = build.getDataBuffer();
            ArrowBuf po = probe.getOffsetBuffer();
            ArrowBuf pd = probe.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                int br = buildRows[i];
                int pr = probeRows[i];
                int bFrom = bo.getInt((long) br << 2);
                int bTo = bo.getInt(((long) br + 1) << 2);
                int pFrom = po.getInt((long) pr << 2);
                int pTo = po.getInt(((long) pr + 1) << 2);
                if (bTo - bFrom == pTo - pFrom && ByteFunctionHelpers.equal(bd, bFrom, bTo, pd, pFrom, pTo) == 1) {
                    buildRows[kept] = br;
                    probeRows[kept] = pr;
                    kept++;
                }
            }
            return kept;
        }
    }
}
