package dev.quiver.sql.planner;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/** One table that is never scanned, for {@link SqlPlanner#warmUp()}. */
final class WarmUpCatalog implements Catalog {
    static final WarmUpCatalog INSTANCE = new WarmUpCatalog();

    /** Joins, aggregates, sorts, EXISTS and IN sub-queries, a view: the usual planning paths. */
    static final String QUERY = """
            select a.s, count(*), sum(a.m), avg(a.m)
            from warm a join warm_view b on a.k = b.k
            where a.s like 'x%' and a.d < date '2001-01-01'
              and exists (select * from warm c where c.k = a.k and c.m > a.m)
              and a.k in (select k from warm where s in ('a', 'b'))
              and a.m > (select avg(m) from warm)
            group by a.s
            order by 2 desc
            limit 10""";

    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.INT64, false),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("d", QuiverTypes.DATE32, true)));

    private static final TableSource TABLE = new TableSource() {
        @Override
        public String name() {
            return "warm";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Statistics statistics() {
            return Statistics.unknown(SCHEMA);
        }

        @Override
        public ExecutionPlan scan(ScanRequest request) {
            throw new UnsupportedOperationException("the warm-up table is never scanned");
        }
    };

    private WarmUpCatalog() {}

    @Override
    public Optional<TableSource> table(String name) {
        return name.equalsIgnoreCase("warm") ? Optional.of(TABLE) : Optional.empty();
    }

    @Override
    public Set<String> tableNames() {
        return Set.of("warm");
    }
}
