package dev.quiver.distributed.plan;

import static dev.quiver.distributed.plan.PlanBuilders.coalesce;
import static dev.quiver.distributed.plan.PlanBuilders.distinct;
import static dev.quiver.distributed.plan.PlanBuilders.fanOut;
import static dev.quiver.distributed.plan.PlanBuilders.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TaskRouterTest {
    private static final List<WorkerAddress> THREE = IntStream.range(0, 3).mapToObj(i -> new WorkerAddress("w" + i, 1000 + i)).toList();

    @Test
    void aStageGetsAtMostCeilTOverWTasksPerWorkerAndTheStartMovesOn() {
        TaskRouter router = new TaskRouter(THREE);
        assertThat(router.place(stage(0, 5, List.of()))).extracting(WorkerAddress::host).containsExactly("w0", "w1", "w2", "w0", "w1");
        List<WorkerAddress> second = router.place(stage(1, 2, List.of()));
        assertThat(second).extracting(WorkerAddress::host).containsExactly("w2", "w0");
        for (int tasks = 1; tasks <= 10; tasks++) {
            List<WorkerAddress> placement = router.place(stage(2 + tasks, tasks, List.of()));
            int most = THREE.stream().mapToInt(worker -> Collections.frequency(placement, worker)).max().orElseThrow();
            assertThat(most).as("%d tasks", tasks).isEqualTo((tasks + 2) / 3);
        }
    }

    @Test
    void aOneTaskStageSitsBesideItsSingleOneTaskInput() {
        TaskRouter router = new TaskRouter(THREE);
        List<WorkerAddress> input = router.place(stage(0, 1, List.of()));
        router.place(stage(1, 2, List.of()));
        assertThat(router.place(stage(2, 1, List.of(0)))).containsExactlyElementsOf(input);
        assertThat(router.place(stage(3, 1, List.of(1)))).hasSize(1);
    }

    @Test
    void placeAllRoutesEveryStageButTheHead() {
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(distinct(table(60, 2), "k", 2)));
        Map<Integer, List<WorkerAddress>> placements = TaskRouter.placeAll(plan, THREE);
        assertThat(placements.keySet()).containsExactlyInAnyOrder(0, 1);
        assertThat(placements.get(0)).hasSize(3).doesNotHaveDuplicates();
    }

    private static Stage stage(int id, int tasks, List<Integer> inputs) {
        ExecutionPlan plan = table(10, 1);
        return new Stage(id, Collections.nCopies(tasks, plan), 1, TaskCountHint.desired(tasks, "test"),
                Optional.of(new StageOutput(BoundaryKind.COALESCE, 99, List.of(), tasks)), inputs);
    }
}
