package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * AQE's estimate of a GROUP BY over high-cardinality keys (TPC-H SF 0.1 lineitem by order and part:
 * ~600,000 groups) does not depend on the workers' memory. Its producer stage is a PARTIAL
 * aggregate, "blocking" by its type: with ample memory its partitions are sampled to their end;
 * with little (16 MiB per worker: all 8 partitions of its one task share a pool), the aggregate
 * flushes under memory pressure and the pool refuses the sampler early (at 32 MiB only some
 * partitions are). Either way the estimate is not a lower bound, is within 1.5× of what the stage
 * outputs, and gives the consumer the same task count. With little memory the consumer's FINAL
 * aggregate may run out of memory: that is the exact-consumer problem of issue 6, not this test's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BlockedStageSamplingTest {
    private static final int WORKERS = 8;
    private static final int PARTITIONS = 8;
    private static final String QUERY = "SELECT count(*), sum(c) FROM (SELECT l_orderkey, l_partkey, count(*) AS c, sum(l_quantity) AS q,"
            + " max(l_suppkey) AS s FROM lineitem GROUP BY l_orderkey, l_partkey)";

    private TpchCatalog catalog;
    private long inputRows;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.1, 1L << 30);
        try (QuerySession singleNode = QuerySession.builder().catalog(catalog).targetPartitions(2).build()) {
            inputRows = ((Number) singleNode.executeScript("SELECT count(*) FROM lineitem").rows().get(0).get(0)).longValue();
        }
    }

    @AfterAll
    void stop() {
        catalog.close();
    }

    @Test
    void theGroupByStageIsEstimatedAlikeWithLittleAndWithAmpleMemory() {
        Sizing small = run(16L << 20);
        Sizing ample = run(512L << 20);
        // the partial aggregate outputs at least one row per group (the query's count) and at most one per input row
        long groups = ample.groups().orElseThrow();
        assertThat(groups).isGreaterThan(500_000).isLessThanOrEqualTo(inputRows);
        // cut short: how far each partition got before the pool said no, and how many partitions had reported when
        // the estimate was taken, depend on how the 8 partitions' threads interleave (0.234 and 0.25 were seen, and
        // 0.25 with ample memory too), so only "not the whole input" is asserted; the estimate below is the point
        assertThat(small.sampled().fractionSampled()).as("%s", small).isLessThan(1.0);
        for (Sizing sizing : List.of(small, ample)) {
            assertThat(sizing.sampled().summary()).as("%s", sizing).startsWith("estimated rows=~");
            assertThat((double) sizing.sampled().rows()).as("%s", sizing).isBetween(inputRows / 1.5, groups * 1.5);
        }
        assertThat(small.consumerTasks()).as("consumer tasks with 16 MiB (%s) and with 512 MiB (%s)", small, ample)
                .isEqualTo(ample.consumerTasks());
    }

    /** @param groups the query's count of groups, when it completed */
    private record Sizing(long workerMemory, QueryEvent.StageSampled sampled, int consumerTasks, OptionalLong groups) {}

    private Sizing run(long workerMemory) {
        List<QueryEvent> heard = new CopyOnWriteArrayList<>();
        OptionalLong groups = OptionalLong.empty();
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(PARTITIONS).localWorkers(WORKERS, workerMemory)
                .set(DistributedSettings.DYNAMIC_TASK_COUNT, true).queryEventListener(heard::add).build()) {
            try {
                groups = OptionalLong.of(((Number) session.executeScript(QUERY).rows().get(0).get(0)).longValue());
            } catch (RuntimeException outOfMemory) {
                // the consumer may fail for memory: the sizing is what is measured here
            }
        }
        int groupByStage = heard.stream().filter(event -> event instanceof QueryEvent.StageClosed closed && closed.inputStageIds().isEmpty())
                .mapToInt(event -> ((QueryEvent.StageClosed) event).stageId()).findFirst().orElseThrow();
        int consumer = heard.stream().filter(event -> event instanceof QueryEvent.StageClosed closed && closed.inputStageIds().contains(groupByStage))
                .mapToInt(event -> ((QueryEvent.StageClosed) event).stageId()).findFirst().orElseThrow();
        QueryEvent.StageSampled sampled = heard.stream().filter(event -> event instanceof QueryEvent.StageSampled s && s.stageId() == groupByStage)
                .map(QueryEvent.StageSampled.class::cast).findFirst().orElseThrow();
        int consumerTasks = heard.stream().filter(event -> event instanceof QueryEvent.StageSized sized && sized.stageId() == consumer)
                .mapToInt(event -> ((QueryEvent.StageSized) event).taskCount()).findFirst().orElseThrow();
        return new Sizing(workerMemory, sampled, consumerTasks, groups);
    }
}
