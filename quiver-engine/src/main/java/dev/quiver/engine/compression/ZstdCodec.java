package dev.quiver.engine.compression;

import com.github.luben.zstd.Zstd;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;

/**
 * Arrow IPC body compression with ZSTD on zstd-jni, working on the buffers' memory. Quiver ships
 * its own instead of arrow-compression's so that one codec factory (ours) serves both LZ4 and ZSTD
 * (the first factory on the class path wins per codec type).
 */
public final class ZstdCodec extends AbstractCompressionCodec {
    /** Level 1: nearly the ratio of the default level 3 at a higher speed (docs/distributed.md). */
    public static final int DEFAULT_LEVEL = 1;

    private final int level;

    public ZstdCodec(int level) {
        this.level = level;
    }

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long length = uncompressed.writerIndex();
        long bound = Zstd.compressBound(length);
        long prefix = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        ArrowBuf out = allocator.buffer(prefix + bound);
        long written = Zstd.compressUnsafe(out.memoryAddress() + prefix, bound, uncompressed.memoryAddress(), length, level);
        if (Zstd.isError(written)) {
            out.close();
            throw new IllegalStateException("ZSTD compression failed: " + Zstd.getErrorName(written));
        }
        out.writerIndex(prefix + written);
        return out;
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long length = readUncompressedLength(compressed);
        long prefix = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        ArrowBuf out = allocator.buffer(length);
        long written = Zstd.decompressUnsafe(out.memoryAddress(), length, compressed.memoryAddress() + prefix, compressed.writerIndex() - prefix);
        if (Zstd.isError(written) || written != length) {
            out.close();
            throw new IllegalStateException("ZSTD decompression failed: "
                    + (Zstd.isError(written) ? Zstd.getErrorName(written) : written + " bytes instead of " + length));
        }
        out.writerIndex(length);
        return out;
    }

    @Override
    public CodecType getCodecType() {
        return CodecType.ZSTD;
    }
}
