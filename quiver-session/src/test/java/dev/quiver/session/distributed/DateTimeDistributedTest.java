package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Date and time functions on a 4-worker local cluster (real Flight servers on 127.0.0.1) over
 * TPC-H SF 0.01, the scans split into many tasks: the current time is one instant in every task of
 * a query and a new one in the next query, and date functions computed on the workers give the
 * single-node answers. (The SQL-file suite's datetime.slt runs every date and time query against
 * DuckDB on 4 workers, static and adaptive.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DateTimeDistributedTest {
    private TpchCatalog catalog;
    private QuerySession cluster;
    private QuerySession single;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        cluster = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(4)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build();
        single = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
    }

    @AfterAll
    void stop() {
        try (TpchCatalog closedLast = catalog; QuerySession first = cluster; QuerySession second = single) {
            DistributedRun.assertNothingLeftOnWorkers(cluster, Duration.ofSeconds(5));
        }
    }

    @Test
    void nowIsOneInstantInEveryTaskOfAQuery() {
        String sql = "select count(distinct now()), count(distinct current_timestamp), count(distinct today()), "
                + "min(date_diff('microsecond', now(), current_timestamp)), count(*), min(now()) "
                + "from lineitem where l_shipdate < current_date";
        DistributedRun first = DistributedRun.query(cluster, sql);
        DistributedRun.assertSucceeded(first.finalPlan());
        int scanTasks = first.finalPlan().plan().stages().stream().mapToInt(Stage::taskCount).max().orElseThrow();
        assertThat(scanTasks).as("the scan runs as several tasks").isGreaterThan(1);
        List<Object> row = first.result().rows().get(0);
        assertThat(row.subList(0, 5)).containsExactly(1L, 1L, 1L, 0L, 60175L);
        List<Object> next = DistributedRun.query(cluster, sql).result().rows().get(0);
        assertThat((Long) next.get(5)).as("the next query has its own instant").isGreaterThanOrEqualTo((Long) row.get(5));
    }

    @Test
    void dateFunctionsOnWorkersGiveTheSingleNodeAnswers() {
        for (String sql : List.of(
                "select date_trunc('month', o_orderdate) as m, count(*), min(o_orderdate), max(o_orderdate) from orders group by 1 order by 1",
                "select extract(dow from l_shipdate), extract(isoyear from l_shipdate), count(*) from lineitem group by 1, 2 order by 1, 2",
                "select l_shipmode, sum(l_receiptdate - l_shipdate), max(date_diff('week', l_shipdate, l_receiptdate)) from lineitem group by 1 order by 1",
                "select strftime(o_orderdate, '%Y-W%V') as w, count(*) from orders where o_orderdate + interval '90' minute "
                        + "> timestamp '1998-01-01 00:30:00' group by 1 order by 1",
                "select count(*) from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day")) {
            DistributedRun run = DistributedRun.query(cluster, sql);
            DistributedRun.assertSucceeded(run.finalPlan());
            assertThat(run.result().rows()).as(sql).isEqualTo(single.executeScript(sql).rows()).isNotEmpty();
        }
    }
}
