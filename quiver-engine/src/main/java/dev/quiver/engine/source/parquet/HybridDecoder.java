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
            for (int k = 0; k < n; k++) {
                if (packedIndex == 8) {
                    if (bitWidth == 0) {
                        java.util.Arrays.fill(unpacked, 0);
                    } else {
                        packer.unpack8Values(in, in.position(), unpacked, 0);
                        in.position(in.position() + bitWidth);
                    }
                    packedIndex = 0;
                }
                out[i++] = unpacked[packedIndex++];
            }
            runLeft -= n;
        }
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
