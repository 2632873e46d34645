package dev.quiver.distributed.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;

/**
 * How the protocol's documents carry plans and expressions (a task's plan, a shuffle head's keys):
 * as JSON trees written and read by the plan codec, {@code dev.quiver.distributed.codec.PlanCodec}.
 * The protocol sits below the codec (the codec knows the distributed plan nodes, which use the
 * protocol's records), so it names only what it needs of it here. Implementations are thread-safe.
 */
public interface PlanTreeCodec {
    ObjectNode toTree(ExecutionPlan plan);

    ExecutionPlan fromTree(JsonNode tree);

    JsonNode exprToTree(PhysicalExpr expr);

    PhysicalExpr exprFromTree(JsonNode tree);
}
