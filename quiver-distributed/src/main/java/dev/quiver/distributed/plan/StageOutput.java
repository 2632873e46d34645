package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;

/**
 * Where a producer stage's output goes: the boundary kind, the consumer stage, and for a shuffle
 * the hash keys (over the producer plan's schema) and {@code P_c}. The producer head itself is
 * fixed only when the consumer's task count is known (see
 * {@link dev.quiver.distributed.protocol.ProducerHead}).
 */
public record StageOutput(BoundaryKind kind, int consumerStageId, List<PhysicalExpr> keys, int partitionsPerConsumerTask) {
    public StageOutput {
        requireNonNull(kind, "kind is null");
        keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (partitionsPerConsumerTask < 1) {
            throw new IllegalArgumentException("P_c must be at least 1: " + partitionsPerConsumerTask);
        }
    }
}
