package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.engine.execution.ExecutionPlan;

/**
 * A query as planned for the coordinator, decided once when it is planned: every stage sized
 * before execution ({@link Static}), or sized by AQE at run time ({@link Adaptive}, DESIGN §5).
 */
public sealed interface PlannedQuery permits PlannedQuery.Static, PlannedQuery.Adaptive {
    /** The physical plan of one node the stages come from. */
    ExecutionPlan singleNodePlan();

    /** Every stage sized at planning time from estimated statistics. */
    record Static(DistributedPlan plan) implements PlannedQuery {
        public Static {
            requireNonNull(plan, "plan is null");
        }

        @Override
        public ExecutionPlan singleNodePlan() {
            return plan.singleNodePlan();
        }
    }

    /** Nothing sized yet: the coordinator cuts {@code singleNodePlan} and sizes each stage when it closes, from its inputs' samples. */
    record Adaptive(ExecutionPlan singleNodePlan, AdaptivePlanning planning) implements PlannedQuery {
        public Adaptive {
            requireNonNull(singleNodePlan, "singleNodePlan is null");
            requireNonNull(planning, "planning is null");
        }
    }
}
