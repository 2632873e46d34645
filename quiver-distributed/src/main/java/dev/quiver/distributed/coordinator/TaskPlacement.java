package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.worker.WorkerAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Even routing (DESIGN §4): the T tasks of a stage go round-robin over the W workers, starting at a
 * worker that moves on from stage to stage, so each worker gets at most {@code ceil(T/W)} tasks of a
 * stage and one-task stages do not all land on the first worker.
 */
final class TaskPlacement {
    private TaskPlacement() {}

    static List<WorkerAddress> place(int taskCount, List<WorkerAddress> workers, int firstWorker) {
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("no worker to place tasks on");
        }
        List<WorkerAddress> placement = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            placement.add(workers.get(Math.floorMod(firstWorker + task, workers.size())));
        }
        return List.copyOf(placement);
    }
}
