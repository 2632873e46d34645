/**
 * The hook that makes a Flight stream send compressed IPC bodies
 * ({@link dev.quiver.distributed.compression.FlightCompression}); the codecs themselves are the
 * engine's ({@link dev.quiver.engine.compression}), shared with spilling.
 */
package dev.quiver.distributed.compression;
