/**
 * The codec SPI of plan serialization: {@link dev.quiver.distributed.codec.spi.PlanNodeCodec} for
 * custom plan nodes and {@link dev.quiver.distributed.codec.spi.ExprCodec} for custom expressions,
 * registered on {@code dev.quiver.distributed.codec.PlanCodec.builder()}.
 */
package dev.quiver.distributed.codec.spi;
