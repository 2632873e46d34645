package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The progress line's text, read after a query has finished (so that what it says is known): the
 * rows the scans read with their share of the input on one node, the stages and tasks done on
 * workers. TPC-H's lineitem at SF 0.01 has 60,175 rows (the count in the TPC-H answer files of
 * {@code io.trino.tpch}).
 */
class QueryProgressTest {
    private static final String LINEITEM_ROWS = "60,175";

    @Test
    void oneNodeCountsTheRowsTheScansReadAndTheirShareOfTheInput() {
        try (QuerySession session = QuerySession.builder().catalog(new TpchCatalog(0.01)).targetPartitions(2).build();
                QueryHandle handle = session.execute("select l_returnflag, count(*) from lineitem group by l_returnflag")) {
            handle.collect();
            assertThat(new QueryProgress(handle).describe())
                    .matches("read " + LINEITEM_ROWS + " rows \\(\\d+(\\.\\d)? (KiB|MiB)\\), 100% of the input \\| \\d+\\.\\d s");
        }
    }

    @Test
    void onWorkersCountsTheStagesAndTasksDone() {
        try (QuerySession session = QuerySession.builder().catalog(new TpchCatalog(0.01)).targetPartitions(2).localWorkers(2, 256L << 20).build();
                QueryHandle handle = session.execute("select l_returnflag, count(*) from lineitem group by l_returnflag")) {
            handle.collect();
            String line = new QueryProgress(handle).describe();
            Matcher matcher = Pattern.compile("stages (\\d+)/(\\d+) done, tasks (\\d+)/(\\d+) done \\| \\d+\\.\\d s").matcher(line);
            assertThat(matcher.matches()).as(line).isTrue();
            // a scan stage and the aggregation's: every one of them done, and every task
            assertThat(Integer.parseInt(matcher.group(2))).as(line).isGreaterThanOrEqualTo(2);
            assertThat(matcher.group(1)).as(line).isEqualTo(matcher.group(2));
            assertThat(matcher.group(3)).as(line).isEqualTo(matcher.group(4));
            assertThat(Integer.parseInt(matcher.group(4))).as(line).isEqualTo(handle.taskStates().size());
        }
    }
}
