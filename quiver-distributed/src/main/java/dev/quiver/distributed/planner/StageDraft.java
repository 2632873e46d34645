package dev.quiver.distributed.planner;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;

/**
 * A stage as the {@link StageCutter} leaves it: its plan with unsized
 * {@link dev.quiver.distributed.operator.StageInputExec} leaves, the hints its nodes gave, and
 * where its output goes. Mutable only while the cutter builds it.
 */
final class StageDraft {
    int id = -1;
    ExecutionPlan plan;
    final List<TaskCountHint> nodeHints = new ArrayList<>();
    final List<Integer> inputs = new ArrayList<>();
    BoundaryKind outputKind;
    List<PhysicalExpr> outputKeys = List.of();
    int outputPartitionsPerConsumerTask;
    int consumerId = -1;
    boolean readsCoalesceInput;
}
