package dev.quiver.engine.compression;

import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * The codec factory Arrow's readers find through {@code ServiceLoader}
 * ({@code META-INF/services/org.apache.arrow.vector.compression.CompressionCodec$Factory}), so that
 * a Flight stream compressed with LZ4 or ZSTD decompresses with {@link Lz4FrameCodec} and
 * {@link ZstdCodec}.
 */
public final class QuiverCompressionFactory implements CompressionCodec.Factory {
    @Override
    public CompressionCodec createCodec(CodecType codecType) {
        return createCodec(codecType, ZstdCodec.DEFAULT_LEVEL);
    }

    @Override
    public CompressionCodec createCodec(CodecType codecType, int compressionLevel) {
        return switch (codecType) {
            case LZ4_FRAME -> new Lz4FrameCodec();
            case ZSTD -> new ZstdCodec(compressionLevel);
            case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
        };
    }
}
