package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.operator.exchange.PartitionHash;
import dev.quiver.engine.stats.HyperLogLog;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.ValueVector;

/**
 * A mergeable HyperLogLog sketch of hashed value tuples. Each tuple is first hashed with the
 * engine's {@link PartitionHash}, which hashes values in canonical form, so equal keys count once
 * whatever their width (an int32 5 and an int64 5 agree) and on every worker; the hash is mixed
 * again before it picks a register, because the partition hash's low bits are what chose the
 * partition, so all keys of one partition share them.
 *
 * <p>Written here rather than taken from Apache DataSketches: datasketches-java 7's serialization
 * goes through datasketches-memory 4, which needs the {@code jdk.incubator.foreign} module on
 * JDK 17 and does not run on JDK 25 (see docs/aqe.md).
 *
 * <p>{@code 2^lgK} one-byte registers of the engine's {@link HyperLogLog} (standard error about
 * {@code 1.04 / sqrt(2^lgK)}: 1.6% for the default 4096 registers). The encoded form (Base64) is
 * sparse while few registers are set. Not thread-safe.
 */
public final class KeySketch {
    /** log2 of the registers of a key sketch: 4096 registers, about 1.6% standard error. */
    public static final int KEY_LG_K = 12;
    /** The relative standard error of a key sketch's estimate. */
    public static final double KEY_STANDARD_ERROR = HyperLogLog.standardError(KEY_LG_K);
    /** log2 of the registers of a per-column sketch, which never leaves the worker. */
    public static final int COLUMN_LG_K = 10;
    private static final byte DENSE = 'D';
    private static final byte SPARSE = 'S';

    private final int lgK;
    private final byte[] registers;

    public KeySketch() {
        this(KEY_LG_K);
    }

    public KeySketch(int lgK) {
        this.registers = HyperLogLog.registers(lgK);
        this.lgK = lgK;
    }

    /** Adds the first {@code rowCount} tuples of {@code columns}. */
    public void addRows(List<? extends ValueVector> columns, int rowCount) {
        addHashes(PartitionHash.hashRows(columns, rowCount));
    }

    /** Adds tuple hashes (from {@link PartitionHash}). */
    public void addHashes(long[] hashes) {
        for (long hash : hashes) {
            add(hash);
        }
    }

    private void add(long tupleHash) {
        HyperLogLog.add(registers, lgK, mix(tupleHash));
    }

    /** MurmurHash3's 64-bit finalizer. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** The estimated number of distinct tuples added. */
    public double estimate() {
        return HyperLogLog.estimate(registers, lgK);
    }

    public boolean isEmpty() {
        return HyperLogLog.isEmpty(registers);
    }

    /** Adds every tuple of {@code other} (same size) to this sketch. */
    public void merge(KeySketch other) {
        if (other.lgK != lgK) {
            throw new IllegalArgumentException("cannot merge a sketch of 2^" + other.lgK + " registers into one of 2^" + lgK);
        }
        HyperLogLog.merge(registers, other.registers);
    }

    /** The union of sketches, as a new sketch. */
    public static KeySketch merge(List<KeySketch> sketches) {
        KeySketch union = new KeySketch(sketches.isEmpty() ? KEY_LG_K : sketches.get(0).lgK);
        sketches.forEach(union::merge);
        return union;
    }

    /** The serialized form, Base64, for a {@link PartitionSample}: {@code lgK}, then the registers dense, or sparse as (index, value) pairs. */
    public String encode() {
        int set = 0;
        for (byte register : registers) {
            set += register == 0 ? 0 : 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(lgK);
        if (set * 3 < registers.length) {
            out.write(SPARSE);
            for (int i = 0; i < registers.length; i++) {
                if (registers[i] != 0) {
                    out.write(i >>> 8);
                    out.write(i & 0xFF);
                    out.write(registers[i]);
                }
            }
        } else {
            out.write(DENSE);
            out.write(registers, 0, registers.length);
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    public static KeySketch decode(String encoded) {
        byte[] bytes = Base64.getDecoder().decode(requireNonNull(encoded, "encoded is null"));
        if (bytes.length < 2) {
            throw new IllegalArgumentException("not a key sketch: " + bytes.length + " bytes");
        }
        KeySketch sketch = new KeySketch(bytes[0]);
        if (bytes[1] == DENSE && bytes.length == 2 + sketch.registers.length) {
            System.arraycopy(bytes, 2, sketch.registers, 0, sketch.registers.length);
        } else if (bytes[1] == SPARSE && (bytes.length - 2) % 3 == 0) {
            for (int at = 2; at < bytes.length; at += 3) {
                int index = ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
                if (index >= sketch.registers.length) {
                    throw new IllegalArgumentException("key sketch register " + index + " out of range");
                }
                sketch.registers[index] = bytes[at + 2];
            }
        } else {
            throw new IllegalArgumentException("not a key sketch: format " + bytes[1] + ", " + bytes.length + " bytes");
        }
        return sketch;
    }
}
