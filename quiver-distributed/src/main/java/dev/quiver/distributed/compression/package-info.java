/**
 * Compression of the batches exchanged between workers: fast LZ4-frame and ZSTD codecs for Arrow
 * IPC bodies ({@link dev.quiver.distributed.compression.Lz4FrameCodec},
 * {@link dev.quiver.distributed.compression.ZstdCodec}), registered for Arrow's readers by
 * {@link dev.quiver.distributed.compression.QuiverCompressionFactory}, and the hook that makes a
 * Flight stream send compressed bodies ({@link dev.quiver.distributed.compression.FlightCompression}).
 */
package dev.quiver.distributed.compression;
