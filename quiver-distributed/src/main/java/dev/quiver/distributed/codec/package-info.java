/**
 * Plan serialization: {@link dev.quiver.distributed.codec.PlanCodec} turns an
 * {@code ExecutionPlan} into bytes and back, with built-in codecs for every engine operator,
 * built-in scan and expression, and the {@link dev.quiver.distributed.codec.spi} for custom ones.
 */
package dev.quiver.distributed.codec;
