package dev.quiver.distributed.compression;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.lang.reflect.Field;
import org.apache.arrow.flight.OutboundStreamListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * Starts a Flight stream whose IPC bodies are compressed. Flight Java 18.3 has no public switch
 * for this: its outbound listener always unloads batches without a codec. The listener's
 * {@code unloader} field is replaced, right after {@code start}, by one with the codec; readers
 * decompress on their own (they look codecs up through {@link dev.quiver.engine.compression.QuiverCompressionFactory}).
 */
public final class FlightCompression {
    private static final Field UNLOADER = unloaderField();

    private FlightCompression() {}

    /** {@code listener.start(root)}, then every batch put on it goes out compressed with {@code codec}. */
    public static void start(OutboundStreamListener listener, VectorSchemaRoot root, CompressionCodec codec) {
        listener.start(root);
        if (codec.getCodecType() == NoCompressionCodec.INSTANCE.getCodecType()) {
            return;
        }
        try {
            UNLOADER.set(listener, new VectorUnloader(root, true, codec, true));
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "cannot compress Flight stream " + listener.getClass().getName() + ": " + e, e);
        }
    }

    private static Field unloaderField() {
        try {
            Field field = Class.forName("org.apache.arrow.flight.OutboundStreamListenerImpl").getDeclaredField("unloader");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("this Arrow Flight version has no OutboundStreamListenerImpl.unloader to compress with: " + e, e);
        }
    }
}
