/**
 * Compression of Arrow IPC bodies, for the batches exchanged between workers and the runs operators
 * spill to disk: fast LZ4-frame and ZSTD codecs ({@link dev.quiver.engine.compression.Lz4FrameCodec},
 * {@link dev.quiver.engine.compression.ZstdCodec}) registered for Arrow's readers by
 * {@link dev.quiver.engine.compression.QuiverCompressionFactory}, chosen by
 * {@link dev.quiver.engine.compression.IpcCompression}.
 */
package dev.quiver.engine.compression;
