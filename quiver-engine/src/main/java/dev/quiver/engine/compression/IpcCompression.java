package dev.quiver.engine.compression;

import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * How Arrow IPC bodies are compressed: batches exchanged between workers (the setting
 * {@code distributed.compression}) and runs spilled to disk (the setting {@code spill_compression}).
 */
public enum IpcCompression {
    LZ4,
    ZSTD,
    NONE;

    /** A codec to compress with; LZ4 and ZSTD codecs are stateless, so one may serve many streams. */
    public CompressionCodec newCodec() {
        return switch (this) {
            case LZ4 -> new Lz4FrameCodec();
            case ZSTD -> new ZstdCodec(ZstdCodec.DEFAULT_LEVEL);
            case NONE -> NoCompressionCodec.INSTANCE;
        };
    }
}
