package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Even routing of a query's tasks over its workers (DESIGN §4). A stage's T tasks go round-robin
 * over the W workers, so a worker gets at most {@code ceil(T/W)} of them; the starting worker moves
 * on by the tasks already placed, so consecutive stages start where the last one stopped. A
 * one-task stage whose single input stage is one task sits beside that task, where its input is.
 * The head stage is not routed: it runs on the coordinator.
 *
 * <p>One router per query, used from one thread: it remembers where earlier stages went. Stages
 * must be placed producers first (AQE may place them one at a time as it sizes them).
 */
public final class TaskRouter {
    private final List<WorkerAddress> workers;
    private final Map<Integer, List<WorkerAddress>> placed = new HashMap<>();
    private int next;

    public TaskRouter(List<WorkerAddress> workers) {
        this.workers = List.copyOf(requireNonNull(workers, "workers is null"));
        if (this.workers.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "no worker to route tasks to");
        }
    }

    /** Where task i of {@code stage} runs, at position i. */
    public List<WorkerAddress> place(Stage stage) {
        requireNonNull(stage, "stage is null");
        if (stage.isHead()) {
            throw new IllegalArgumentException("the head stage runs on the coordinator, not on a worker");
        }
        List<WorkerAddress> placement = new ArrayList<>(stage.taskCount());
        if (stage.taskCount() == 1 && stage.inputStageIds().size() == 1 && placed.containsKey(stage.inputStageIds().get(0))
                && placed.get(stage.inputStageIds().get(0)).size() == 1) {
            placement.add(placed.get(stage.inputStageIds().get(0)).get(0));
        } else {
            for (int task = 0; task < stage.taskCount(); task++) {
                placement.add(workers.get(next));
                next = (next + 1) % workers.size();
            }
        }
        placed.put(stage.stageId(), List.copyOf(placement));
        return placed.get(stage.stageId());
    }

    /** Every stage but the head, producers first: stage id to the worker of each task. */
    public static Map<Integer, List<WorkerAddress>> placeAll(DistributedPlan plan, List<WorkerAddress> workers) {
        TaskRouter router = new TaskRouter(workers);
        Map<Integer, List<WorkerAddress>> placements = new HashMap<>();
        for (Stage stage : plan.stages()) {
            if (!stage.isHead()) {
                placements.put(stage.stageId(), router.place(stage));
            }
        }
        return Map.copyOf(placements);
    }
}
