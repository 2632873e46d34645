package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.memory.ByteSize;
import java.util.List;

/**
 * The cost of a stage (DESIGN §5 step 1): the bytes of work all its operators do, and its
 * estimated output, from its leaves' statistics propagated up the stage plan by {@link CostModel}.
 *
 * @param costBytes the sum of every operator's {@link OperatorCost#workBytes()}
 * @param operators one entry per operator, in pre-order
 * @param unknownLeaves leaves without row or byte statistics, counted as empty (the plan says why a stage looks cheap)
 */
public record StageCost(long costBytes, long outputRows, long outputBytes, List<OperatorCost> operators, List<String> unknownLeaves) {
    public StageCost {
        operators = List.copyOf(requireNonNull(operators, "operators is null"));
        unknownLeaves = List.copyOf(requireNonNull(unknownLeaves, "unknownLeaves is null"));
        if (costBytes < 0 || outputRows < 0 || outputBytes < 0) {
            throw new IllegalArgumentException("costs must not be negative: " + costBytes + ", " + outputRows + ", " + outputBytes);
        }
    }

    /** One line for plans and events, e.g. {@code cost 48.0 MiB (estimated output ~120000 rows, ~9.2 MiB)}. */
    public String summary() {
        return "cost " + ByteSize.formatBytes(costBytes) + " (estimated output ~" + outputRows + " rows, ~" + ByteSize.formatBytes(outputBytes) + ")"
                + (unknownLeaves.isEmpty() ? "" : "; no statistics for " + String.join(", ", unknownLeaves));
    }
}
