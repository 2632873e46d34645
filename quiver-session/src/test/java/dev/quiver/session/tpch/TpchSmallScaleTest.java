package dev.quiver.session.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * At tiny scale factors estimated distinct counts exceed row counts; capping them must not turn a
 * column into a unique key, or the optimizer drops the GROUP BY and every group counts 1.
 */
class TpchSmallScaleTest {
    @Test
    void groupByOnAColumnWhoseDistinctCountIsCappedStillGroups() {
        try (QuerySession session = QuerySession.builder().catalog(new TpchCatalog(0.001)).targetPartitions(2).build()) {
            Map<Object, Long> expected = new TreeMap<>();
            for (List<Object> row : session.executeScript("select o_orderdate from orders").rows()) {
                expected.merge(row.get(0), 1L, Long::sum);
            }
            Map<Object, Long> actual = new TreeMap<>();
            for (List<Object> row : session.executeScript("select o_orderdate, count(*) from orders group by o_orderdate").rows()) {
                assertThat(actual.put(row.get(0), (Long) row.get(1))).as("group %s appears once", row.get(0)).isNull();
            }
            assertThat(expected.values()).anyMatch(count -> count > 1);
            assertThat(actual).isEqualTo(expected);
        }
    }
}
