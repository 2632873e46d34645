package dev.quiver.distributed.compression;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/** How exchanged batches are compressed on the wire: the setting {@code distributed.compression}. */
public enum ExchangeCompression {
    LZ4,
    ZSTD,
    NONE;

    /** The setting that chooses it, per task. */
    public static final String SETTING = "distributed.compression";

    /** The codec a producer task compresses its streams with. */
    public CompressionCodec newCodec() {
        return switch (this) {
            case LZ4 -> new Lz4FrameCodec();
            case ZSTD -> new ZstdCodec(ZstdCodec.DEFAULT_LEVEL);
            case NONE -> NoCompressionCodec.INSTANCE;
        };
    }

    /** {@code lz4}, {@code zstd} or {@code none}, case-insensitive. */
    public static ExchangeCompression parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "'" + value + "' is not a value of " + SETTING + ": use lz4, zstd or none");
        }
    }

    /** The compression {@code settings} ask for; LZ4 when they do not say. */
    public static ExchangeCompression fromSettings(Map<String, String> settings) {
        String value = settings.get(SETTING);
        return value == null ? LZ4 : parse(value);
    }
}
