package dev.quiver.engine.source.parquet;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Page compression codecs without Hadoop: parquet-java's own {@code CodecFactory} goes through
 * Hadoop's codec classes. Reads and writes UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW and the
 * deprecated LZ4: Hadoop's framing of LZ4 blocks (a big-endian uncompressed length, then
 * length-prefixed blocks), or, as some writers produced under that name, one raw LZ4 block — tried
 * when the framing does not add up, as Arrow C++ does. Stateless, so one instance serves every thread.
 */
final class ParquetCodecs implements CompressionCodecFactory {
    static final ParquetCodecs INSTANCE = new ParquetCodecs();

    private ParquetCodecs() {}

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new Compressor(codec);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new Decompressor(codec);
    }

    @Override
    public void release() {}

    static boolean supports(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, LZ4 -> true;
            default -> false;
        };
    }

    private static IOException unsupported(CompressionCodecName codec) {
        return new IOException("compression codec " + codec + " is not supported (supported: UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, LZ4)");
    }

    private record Compressor(CompressionCodecName codec) implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput input) throws IOException {
            byte[] bytes = input.toByteArray();
            return switch (codec) {
                case UNCOMPRESSED -> BytesInput.from(bytes);
                case SNAPPY -> BytesInput.from(Snappy.compress(bytes));
                case ZSTD -> BytesInput.from(Zstd.compress(bytes, 3));
                case GZIP -> BytesInput.from(gzip(bytes));
                case LZ4_RAW -> BytesInput.from(lz4(bytes));
                case LZ4 -> BytesInput.from(hadoopLz4(bytes));
                default -> throw unsupported(codec);
            };
        }

        private static byte[] gzip(byte[] bytes) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
            try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                gzip.write(bytes);
            }
            return out.toByteArray();
        }

        private static byte[] lz4(byte[] bytes) {
            Lz4Compressor compressor = new Lz4Compressor();
            byte[] out = new byte[compressor.maxCompressedLength(bytes.length)];
            int length = compressor.compress(bytes, 0, bytes.length, out, 0, out.length);
            return Arrays.copyOf(out, length);
        }

        /** Hadoop's block framing around one LZ4 block: uncompressed length, compressed length, the block. */
        private static byte[] hadoopLz4(byte[] bytes) {
            byte[] block = lz4(bytes);
            return ByteBuffer.allocate(8 + block.length).putInt(bytes.length).putInt(block.length).put(block).array();
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        @Override
        public void release() {}
    }

    private record Decompressor(CompressionCodecName codec) implements BytesInputDecompressor {
        @Override
        public BytesInput decompress(BytesInput input, int uncompressedSize) throws IOException {
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                return input;
            }
            // toByteBuffer() of a page read into memory is a view; toByteArray() copied it through a channel
            ByteBuffer compressed = input.toByteBuffer();
            byte[] out = new byte[uncompressedSize];
            if (compressed.hasArray()) {
                decompress(compressed.array(), compressed.arrayOffset() + compressed.position(), compressed.remaining(), out);
            } else {
                byte[] copy = new byte[compressed.remaining()];
                compressed.duplicate().get(copy);
                decompress(copy, 0, copy.length, out);
            }
            return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize) throws IOException {
            byte[] compressed = new byte[compressedSize];
            input.get(compressed);
            byte[] out = new byte[uncompressedSize];
            if (codec == CompressionCodecName.UNCOMPRESSED) {
                System.arraycopy(compressed, 0, out, 0, Math.min(compressedSize, uncompressedSize));
            } else {
                decompress(compressed, 0, compressedSize, out);
            }
            output.put(out);
        }

        private void decompress(byte[] in, int offset, int length, byte[] out) throws IOException {
            int written;
            switch (codec) {
                case SNAPPY -> written = Snappy.uncompress(in, offset, length, out, 0);
                case ZSTD -> {
                    long result = Zstd.decompressByteArray(out, 0, out.length, in, offset, length);
                    if (Zstd.isError(result)) {
                        throw new IOException("ZSTD page is corrupt: " + Zstd.getErrorName(result));
                    }
                    written = (int) result;
                }
                case GZIP -> written = gunzip(in, offset, length, out);
                case LZ4_RAW -> written = new Lz4Decompressor().decompress(in, offset, length, out, 0, out.length);
                case LZ4 -> written = hadoopLz4(in, offset, length, out);
                default -> throw unsupported(codec);
            }
            if (written != out.length) {
                throw new IOException(codec + " page decompressed to " + written + " bytes; the page header says " + out.length);
            }
        }

        /** Hadoop-framed LZ4, or one raw block when the frames do not add up to the page. */
        private static int hadoopLz4(byte[] in, int offset, int length, byte[] out) throws IOException {
            try {
                int written = hadoopFrames(in, offset, length, out);
                if (written == out.length) {
                    return written;
                }
            } catch (RuntimeException e) {
                // not Hadoop's framing: a raw block below
            }
            return new Lz4Decompressor().decompress(in, offset, length, out, 0, out.length);
        }

        private static int hadoopFrames(byte[] in, int offset, int length, byte[] out) {
            ByteBuffer frames = ByteBuffer.wrap(in, offset, length);
            int written = 0;
            while (frames.remaining() >= 8) {
                int expected = frames.getInt();
                int end = written + expected;
                if (expected < 0 || end > out.length) {
                    throw new IllegalStateException("not a Hadoop LZ4 frame");
                }
                while (written < end) {
                    int blockLength = frames.getInt();
                    if (blockLength < 0 || blockLength > frames.remaining()) {
                        throw new IllegalStateException("not a Hadoop LZ4 block");
                    }
                    written += new Lz4Decompressor().decompress(in, frames.position(), blockLength, out, written, end - written);
                    frames.position(frames.position() + blockLength);
                }
            }
            if (frames.hasRemaining()) {
                throw new IllegalStateException("bytes after the last Hadoop LZ4 frame");
            }
            return written;
        }

        private static int gunzip(byte[] in, int offset, int length, byte[] out) throws IOException {
            try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(in, offset, length))) {
                return gzip.readNBytes(out, 0, out.length);
            }
        }

        @Override
        public void release() {}
    }
}
