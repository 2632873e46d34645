package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlanner;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The planner's stages, run in this JVM by {@link LocalStageRunner} (no Flight), give the TPC-H
 * answers: 4 workers, P = 3, every scan split as far as allowed; once with broadcast joins and
 * once with every collect-left join planned partitioned.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchLocalStagesTest {
    private LocalStageRunner runner;

    @BeforeAll
    void start() {
        runner = new LocalStageRunner();
    }

    @AfterAll
    void stop() {
        runner.close();
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void stagesGiveTheAnswer(int query) {
        ExecutionPlan single = TpchDistributedPlanningTest.singleNode(query);
        AnswerFile answer = AnswerFile.parse(TpchQueries.answer(query));
        DistributedPlannerSettings settings = DistributedPlannerSettings.defaults(4, 3).withBytesPerPartitionForScans(1);
        for (boolean broadcast : new boolean[] {true, false}) {
            DistributedPlan plan = new DistributedPlanner(settings.withBroadcastJoins(broadcast)).plan(single);
            List<List<Object>> rows = runner.run(plan);
            ResultComparator.assertMatches("q" + query + (broadcast ? "" : " without broadcast joins"), plan.headStage().plan().schema(), rows,
                    answer.rows());
        }
        assertThat(query).isPositive();
    }
}
