package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static planning's statistics: the sources' estimates. A stage's advisory hints are each source
 * leaf's {@link TaskEstimators} hint ({@code Exact(1)} for a leaf without an estimator) and
 * {@code Desired(T_p)} for each shuffle input, so that a stage fed only by stage inputs wants as
 * many tasks as its largest input. Nothing is awaited. Immutable.
 */
public final class EstimatedStatistics implements StageStatistics {
    private final DistributedPlannerSettings settings;
    private final TaskEstimators estimators;

    public EstimatedStatistics(DistributedPlannerSettings settings, TaskEstimators estimators) {
        this.settings = requireNonNull(settings, "settings is null");
        this.estimators = requireNonNull(estimators, "estimators is null");
    }

    @Override
    public PlanningMode mode() {
        return PlanningMode.STATIC;
    }

    @Override
    public Optional<Map<Integer, SampledStatistics>> inputs(StageFragment fragment) {
        return Optional.of(Map.of());
    }

    @Override
    public Advice advise(StageFragment fragment, List<Stage> producers) {
        List<TaskCountHint> hints = new ArrayList<>();
        for (ExecutionPlan leaf : PlanTree.leaves(fragment.plan())) {
            if (leaf instanceof StageInputExec input) {
                if (input.kind() == BoundaryKind.SHUFFLE) {
                    Stage producer = StageSizer.producer(producers, fragment, input);
                    hints.add(TaskCountHint.desired(producer.taskCount(), "shuffle input from stage " + producer.stageId() + " ("
                            + producer.taskCount() + " tasks)"));
                }
            } else {
                leafHint(leaf).ifPresent(hints::add);
            }
        }
        return new Advice(hints, Optional.empty());
    }

    @Override
    public Optional<TaskCountHint> leafHint(ExecutionPlan leaf) {
        return Optional.of(estimators.taskCount(leaf, settings));
    }
}
