package dev.quiver.cli;

import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.operator.BoundaryKind;

/** Requires as many consumer tasks as workers at every shuffle: what {@code --stage-handler} instantiates in the tests. */
public final class WorkerCountHandler implements StageEventHandler {
    @Override
    public String name() {
        return "WorkerCountHandler";
    }

    @Override
    public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
        if (event.boundary().kind() != BoundaryKind.SHUFFLE) {
            return DynamicStageBuiltEventResponse.unchanged();
        }
        return DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(event.boundary().workerCount());
    }
}
