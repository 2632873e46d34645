package dev.quiver.engine.source.parquet;

import java.nio.ByteBuffer;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Decodes Parquet's RLE/bit-packed hybrid encoding (definition levels, dictionary ids) many values
 * at a time: a run is filled with one value, bit-packed groups are unpacked eight at a time.
 */
final class HybridDecoder {
    private final ByteBuffer in;
    private final int bitWidth;
    private final int bytesPerValue;
    private final BytePacker packer;
    /** The bytes behind {@code in} when it is a heap buffer: unpacking from an array skips ByteBuffer's per-byte checks. */
    private final byte[] array;
    private final int arrayOffset;
    private final int[] unpacked = new int[8];
    private int runLeft;
    private boolean packed;
    private int runValue;
    private int packedIndex = 8;

    /** {@code in} holds exactly the encoded data (position at its first byte). */
    HybridDecoder(ByteBuffer in, int bitWidth) {
        this.in = in;
        this.bitWidth = bitWidth;
        this.bytesPerValue = (bitWidth + 7) / 8;
        this.packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
        this.array = in.hasArray() ? in.array() : null;
        this.arrayOffset = in.hasArray() ? in.arrayOffset() : 0;
    }

    /** Fills {@code out[0, count)} with the next values. */
    void read(int[] out, int count) {
        int i = 0;
        while (i < count) {
            if (runLeft == 0) {
                nextRun();
            }
            int n = Math.min(runLeft, count - i);
            if (!packed) {
                java.util.Arrays.fill(out, i, i + n, runValue);
                i += n;
                runLeft -= n;
                continue;
            }
            int k = 0;
            while (k < n) {
                if (packedIndex == 8) {
                    if (bitWidth != 0 && n - k >= 8) {
                        // a whole group is wanted: unpack it straight into the output
                        unpack(out, i);
                        i += 8;
                        k += 8;
                        continue;
                    }
                    if (bitWidth == 0) {
                        java.util.Arrays.fill(unpacked, 0);
                    } else {
                        unpack(unpacked, 0);
                    }
                    packedIndex = 0;
                }
                out[i++] = unpacked[packedIndex++];
                k++;
            }
            runLeft -= n;
        }
    }

    /** Unpacks the next group of 8 values ({@code bitWidth} bytes) into {@code target[at, at + 8)}. */
    private void unpack(int[] target, int at) {
        int position = in.position();
        if (position + bitWidth > in.limit()) {
            throw new ParquetDecodingException("RLE/bit-packed data ended early");
        }
        if (array != null) {
            packer.unpack8Values(array, arrayOffset + position, target, at);
        } else {
            packer.unpack8Values(in, position, target, at);
        }
        in.position(position + bitWidth);
    }

    private void nextRun() {
        if (!in.hasRemaining()) {
            throw new ParquetDecodingException("RLE/bit-packed data ended early");
        }
        int header = readUnsignedVarInt();
        if ((header & 1) == 0) {
            packed = false;
            runLeft = header >>> 1;
            int value = 0;
            for (int b = 0; b < bytesPerValue; b++) {
                value |= (in.get() & 0xFF) << (8 * b);
            }
            runValue = value;
        } else {
            packed = true;
            runLeft = (header >>> 1) * 8;
            packedIndex = 8;
        }
    }

    private int readUnsignedVarInt() {
        int value = 0;
        int shift = 0;
        int b;
        do {
            b = in.get() & 0xFF;
            value |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return value;
    }
}
