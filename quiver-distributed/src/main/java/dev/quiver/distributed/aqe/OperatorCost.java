package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

/**
 * What the cost model estimated for one operator of a stage plan.
 *
 * @param nodeIndex the operator's pre-order index in the stage plan (root 0)
 * @param outputRows estimated rows the operator outputs (over all partitions and tasks of the stage)
 * @param outputBytes estimated bytes the operator outputs
 * @param workBytes the operator's own work in bytes (see docs/aqe.md for each operator's formula)
 * @param formula how {@code workBytes} was computed, e.g. {@code build 2 × 1.2 MiB + probe 40.0 MiB}
 */
public record OperatorCost(int nodeIndex, String operator, long outputRows, long outputBytes, long workBytes, String formula) {
    public OperatorCost {
        requireNonNull(operator, "operator is null");
        requireNonNull(formula, "formula is null");
    }
}
