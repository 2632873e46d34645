package dev.quiver.distributed.compression;

import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/** How exchanged batches are compressed on the wire: the setting {@link dev.quiver.distributed.config.DistributedSettings#COMPRESSION}. */
public enum ExchangeCompression {
    LZ4,
    ZSTD,
    NONE;

    /** The codec a producer task compresses its streams with. */
    public CompressionCodec newCodec() {
        return switch (this) {
            case LZ4 -> new Lz4FrameCodec();
            case ZSTD -> new ZstdCodec(ZstdCodec.DEFAULT_LEVEL);
            case NONE -> NoCompressionCodec.INSTANCE;
        };
    }
}
