package dev.quiver.sql.planner;

import static dev.quiver.engine.types.QuiverTypes.BOOLEAN;
import static dev.quiver.engine.types.QuiverTypes.DATE32;
import static dev.quiver.engine.types.QuiverTypes.FLOAT64;
import static dev.quiver.engine.types.QuiverTypes.INT32;
import static dev.quiver.engine.types.QuiverTypes.INT64;
import static dev.quiver.engine.types.QuiverTypes.TIMESTAMP;
import static dev.quiver.engine.types.QuiverTypes.UTF8;
import static dev.quiver.engine.types.QuiverTypes.decimal;
import static dev.quiver.engine.types.QuiverTypes.field;
import static dev.quiver.sql.planner.TpchPlanningTest.nodes;
import static dev.quiver.sql.planner.TpchPlanningTest.tables;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.sql.planner.TpchQueries.TpchQuery;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.Test;

class SqlPlannerTest {
    private static final TestingTpchCatalog TPCH = new TestingTpchCatalog();

    @Test
    void namesMatchCaseInsensitivelyAndKeepTheirCaseForDisplay() {
        LogicalPlan plan = new SqlPlanner(TPCH, Map.of()).plan("SELECT N_NAME, n_NationKey FROM NATION WHERE N_REGIONKEY = 1");

        assertThat(plan.columnNames()).containsExactly("N_NAME", "n_NationKey");
        assertThat(tables(plan.root())).containsExactly("nation");
        assertThat(plan.root().getRowType().getFieldList()).extracting(f -> f.getType().getSqlTypeName().getName())
                .containsExactly("VARCHAR", "BIGINT");
    }

    @Test
    void quotedNamesAlsoMatchCaseInsensitively() {
        assertThat(new SqlPlanner(TPCH, Map.of()).plan("select \"N_NAME\" from \"Nation\"").columnNames()).containsExactly("N_NAME");
    }

    @Test
    void warmUpPlansItsQuery() {
        SqlPlanner.warmUp();

        LogicalPlan plan = new SqlPlanner(WarmUpCatalog.INSTANCE, Map.of("warm_view", "select k, s from warm")).plan(WarmUpCatalog.QUERY);
        assertThat(PlanInvariants.violations(plan.root())).isEmpty();
        assertThat(nodes(plan.root(), Join.class)).extracting(Join::getJoinType).contains(JoinRelType.SEMI);
    }

    @Test
    void viewsExpandIntoTheQuery() {
        SqlPlanner planner = new SqlPlanner(TPCH, Map.of(
                "Asian_Nations", "select n_nationkey, n_name as nation from nation join region on n_regionkey = r_regionkey where r_name = 'ASIA'",
                "asian_names", "select nation from asian_nations"));

        LogicalPlan plan = planner.plan("select Nation from ASIAN_NAMES order by nation");

        assertThat(plan.columnNames()).containsExactly("Nation");
        assertThat(tables(plan.root())).containsExactlyInAnyOrder("nation", "region");
        assertThat(PlanInvariants.violations(plan.root())).isEmpty();
        assertThat(planner.viewColumns("select * from asian_nations")).containsExactly("n_nationkey", "nation");
    }

    @Test
    void viewWithRenamedColumnsAsSessionsWriteThem() {
        SqlPlanner planner = new SqlPlanner(TPCH, Map.of("r", "select * from (select n_nationkey, n_name from nation) as t (k, name)"));

        assertThat(planner.viewColumns("select * from r")).containsExactly("k", "name");
        assertThat(planner.plan("select name from r where k = 3").columnNames()).containsExactly("name");
    }

    @Test
    void q15ViewIsUsedTwice() {
        TpchQuery query = TpchQueries.query(15);
        assertThat(query.views()).containsOnlyKeys("revenue");

        LogicalPlan plan = TpchPlanningTest.plan(15);

        assertThat(plan.columnNames()).containsExactly("s_suppkey", "s_name", "s_address", "s_phone", "total_revenue");
        assertThat(tables(plan.root())).containsExactlyInAnyOrder("supplier", "lineitem", "lineitem");
        assertThat(new SqlPlanner(TPCH, Map.of()).viewColumns(query.views().get("revenue"))).containsExactly("supplier_no", "total_revenue");
    }

    @Test
    void decimalAndIntegerAggregateTypes() {
        LogicalPlan plan = new SqlPlanner(TPCH, Map.of()).plan(
                "select avg(l_quantity), sum(l_quantity), sum(l_linenumber), count(*), sum(l_extendedprice * (1 - l_discount)) from lineitem");

        assertThat(types(plan.root().getRowType()))
                .containsExactly("DECIMAL(19, 6)", "DECIMAL(25, 2)", "BIGINT", "BIGINT NOT NULL", "DECIMAL(38, 4)");
    }

    @Test
    void arrowTypesAndNullabilityBecomeSqlTypes() {
        Schema schema = new Schema(List.of(field("b", INT64, false), field("i", INT32, true), field("d", decimal(20, 5), true),
                field("f", FLOAT64, false), field("s", UTF8, true), field("dt", DATE32, false), field("ok", BOOLEAN, true),
                field("ts", TIMESTAMP, true)));
        Catalog catalog = catalog(new TestingTpchCatalog.StubTable("T", schema, Statistics.unknown(schema)));

        RelDataType rowType = new SqlPlanner(catalog, Map.of()).plan("select * from t").root().getRowType();

        assertThat(types(rowType)).containsExactly("BIGINT NOT NULL", "INTEGER", "DECIMAL(20, 5)", "DOUBLE NOT NULL", "VARCHAR",
                "DATE NOT NULL", "BOOLEAN", "TIMESTAMP(6)");
    }

    @Test
    void sourceStatisticsReachTheMetadata() {
        Schema schema = new Schema(List.of(field("id", INT64, false), field("grp", INT64, false), field("other", UTF8, true)));
        Statistics statistics = new Statistics(Estimate.exact(1000), Estimate.absent(), List.of(
                ColumnStatistics.unknown().withDistinctCount(Estimate.exact(1000)),
                ColumnStatistics.unknown().withDistinctCount(Estimate.exact(10)),
                ColumnStatistics.unknown()));
        Catalog catalog = catalog(new TestingTpchCatalog.StubTable("t", schema, statistics));

        RelNode scan = nodes(new SqlPlanner(catalog, Map.of()).plan("select id, grp, other from t").root(), TableScan.class).get(0);
        RelMetadataQuery mq = scan.getCluster().getMetadataQuery();

        assertThat(mq.getRowCount(scan)).isEqualTo(1000.0);
        assertThat(mq.areColumnsUnique(scan, ImmutableBitSet.of(0))).isTrue();
        assertThat(mq.areColumnsUnique(scan, ImmutableBitSet.of(1))).isFalse();
        assertThat(mq.getDistinctRowCount(scan, ImmutableBitSet.of(1), null)).isEqualTo(10.0);
        assertThat(mq.getDistinctRowCount(scan, ImmutableBitSet.of(0, 1), null)).isEqualTo(1000.0);
    }

    @Test
    void estimatedDistinctCountsMakeNoKeys() {
        Schema schema = new Schema(List.of(field("id", INT64, false)));
        Statistics statistics = new Statistics(Estimate.exact(1000), Estimate.absent(),
                List.of(ColumnStatistics.unknown().withDistinctCount(Estimate.inexact(1000))));
        Catalog catalog = catalog(new TestingTpchCatalog.StubTable("t", schema, statistics));

        LogicalPlan plan = new SqlPlanner(catalog, Map.of()).plan("select id, count(*) from t group by id");
        RelNode scan = nodes(plan.root(), TableScan.class).get(0);
        RelMetadataQuery mq = scan.getCluster().getMetadataQuery();

        assertThat(mq.areColumnsUnique(scan, ImmutableBitSet.of(0))).isNotEqualTo(Boolean.TRUE);
        assertThat(mq.getDistinctRowCount(scan, ImmutableBitSet.of(0), null)).isEqualTo(1000.0);
        assertThat(nodes(plan.root(), Aggregate.class)).hasSize(1);
    }

    @Test
    void joinRowCountUsesKeyDistinctCounts() {
        RelNode root = new SqlPlanner(TPCH, Map.of()).plan("select * from orders join customer on o_custkey = c_custkey").root();
        RelNode join = nodes(root, Join.class).get(0);

        // |orders| * |customer| / max(ndv(o_custkey) = 99,996, ndv(c_custkey) = 150,000)
        assertThat(join.getCluster().getMetadataQuery().getRowCount(join)).isEqualTo(1_500_000.0);
    }

    @Test
    void groupByCountKeepsAggregateShape() {
        LogicalPlan plan = new SqlPlanner(TPCH, Map.of()).plan("select n_regionkey, count(*) as c from nation group by n_regionkey");

        assertThat(nodes(plan.root(), Aggregate.class)).hasSize(1);
        assertThat(plan.columnNames()).containsExactly("n_regionkey", "c");
    }

    @Test
    void intersectAndExceptBecomeSemiAndAntiJoins() {
        SqlPlanner planner = new SqlPlanner(TPCH, Map.of());

        RelNode intersect = planner.plan("select n_regionkey from nation intersect select r_regionkey from region").root();
        RelNode except = planner.plan("select n_regionkey from nation except select r_regionkey from region").root();

        assertThat(nodes(intersect, Join.class)).extracting(Join::getJoinType).containsExactly(JoinRelType.SEMI);
        assertThat(nodes(except, Join.class)).extracting(Join::getJoinType).containsExactly(JoinRelType.ANTI);
        // n_regionkey is not unique: DISTINCT semantics need an aggregate
        assertThat(nodes(intersect, Aggregate.class)).hasSize(1);
        assertThat(nodes(except, Aggregate.class)).hasSize(1);
        assertThat(PlanInvariants.violations(intersect)).isEmpty();
        assertThat(PlanInvariants.violations(except)).isEmpty();
    }

    @Test
    void correlatedScalarSubQueryBecomesAJoinOnPlainEquality() {
        RelNode root = new SqlPlanner(TPCH, Map.of())
                .plan("select n_name, (select count(*) from region where r_regionkey = n_regionkey) from nation").root();

        assertThat(PlanInvariants.violations(root)).isEmpty();
        assertThat(RelOptUtil.toString(root)).doesNotContain("IS NOT DISTINCT FROM");
        assertThat(nodes(root, Join.class)).allSatisfy(join -> assertThat(join.analyzeCondition().leftKeys).isNotEmpty());
    }

    /** A key that needs a cast (p_size INTEGER, n_nationkey BIGINT) is pushed below the join, in ON and in WHERE alike: a hash join, not a nested loop. */
    @Test
    void joinKeysOfDifferentTypesStayEquiJoinKeys() {
        SqlPlanner planner = new SqlPlanner(TPCH, Map.of());
        for (String sql : List.of("select n_name from part, nation where p_size = n_nationkey",
                "select n_name from part join nation on p_size = n_nationkey",
                "select case when exists (select * from region where r_name = n_name) then 'y' else n_name end from part join nation on p_size = n_nationkey")) {
            RelNode root = planner.plan(sql).root();
            assertThat(PlanInvariants.violations(root)).as(sql).isEmpty();
            assertThat(nodes(root, Join.class)).as(sql).allSatisfy(join -> assertThat(join.analyzeCondition().leftKeys).isNotEmpty());
        }
    }

    @Test
    void stringComparedWithDateBecomesADateLiteral() {
        RelNode root = nullablePlanner().plan("select a from t where d >= '2020-01-01' and b = 'x'").root();

        assertThat(RelOptUtil.toString(root)).contains(">=($2, 2020-01-01)").contains("=($1, 'x')").doesNotContain("CAST");
    }

    @Test
    void constantDateArithmeticIsFolded() {
        RelNode root = new SqlPlanner(TPCH, Map.of()).plan("select o_orderkey from orders where o_orderdate in ("
                + "date '1995-01-31' + interval '1' month, date '1996-03-01' - interval '1' day, date('1994-01-01') + interval '1' year,"
                + " date '1994-01-01' - interval '90' day)").root();

        assertThat(RelOptUtil.toString(root)).contains("1995-02-28", "1996-02-29", "1995-01-01", "1993-10-03").doesNotContain("INTERVAL");
    }

    @Test
    void tpchConstantsAreFoldedInOrder() {
        assertThat(RelOptUtil.toString(TpchPlanningTest.plan(1).root())).contains("<=($6, 1998-09-02)");
        assertThat(RelOptUtil.toString(TpchPlanningTest.plan(6).root()))
                .contains(">=($3, 1994-01-01), <($3, 1995-01-01), >=($2, 0.05:DECIMAL(4, 2)), <=($2, 0.07:DECIMAL(4, 2))");
        assertThat(RelOptUtil.toString(TpchPlanningTest.plan(19).root())).contains("<=($1, 11)", "<=($1, 20)", "<=($1, 30)");
    }

    @Test
    void numericComparisonsGetNoCasts() {
        RelNode root = nullablePlanner().plan("select a from t where c between 1 and 2 and a in (1, 2) and c < a").root();

        assertThat(RelOptUtil.toString(root)).doesNotContain("CAST").doesNotContain("SEARCH");
    }

    @Test
    void aggregateFilterBecomesCase() {
        LogicalPlan plan = nullablePlanner().plan("select count(*) filter (where a > 1), sum(c) filter (where b = 'x'), count(*) from t");

        Aggregate aggregate = nodes(plan.root(), Aggregate.class).get(0);
        assertThat(aggregate.getAggCallList()).allSatisfy(call -> assertThat(call.filterArg).isEqualTo(-1));
        assertThat(RelOptUtil.toString(plan.root())).contains("CASE(");
        assertThat(types(plan.root().getRowType())).containsExactly("BIGINT NOT NULL", "DECIMAL(20, 2)", "BIGINT NOT NULL");
    }

    @Test
    void notInOverNullableColumnsKeepsNullSemanticsWithoutLiteralAggregates() {
        RelNode root = nullablePlanner().plan("select a from t where a not in (select x from u)").root();

        assertThat(PlanInvariants.violations(root)).isEmpty();
        assertThat(RelOptUtil.toString(root)).doesNotContain("LITERAL_AGG").contains("IS NULL");
        assertThat(nodes(root, Join.class)).extracting(Join::getJoinType).contains(JoinRelType.LEFT).doesNotContain(JoinRelType.ANTI);
    }

    private static List<String> types(RelDataType rowType) {
        return rowType.getFieldList().stream().map(RelDataTypeField::getType).map(RelDataType::getFullTypeString).toList();
    }

    private static Catalog catalog(TableSource... tables) {
        return new Catalog() {
            @Override
            public Optional<TableSource> table(String name) {
                return Arrays.stream(tables).filter(table -> table.name().equalsIgnoreCase(name)).findFirst();
            }

            @Override
            public Set<String> tableNames() {
                return Arrays.stream(tables).map(TableSource::name).collect(Collectors.toSet());
            }
        };
    }

    /** t(a BIGINT, b VARCHAR, c DECIMAL(10,2), d DATE) and u(x BIGINT, y VARCHAR), all nullable, no statistics. */
    private static SqlPlanner nullablePlanner() {
        Schema t = new Schema(List.of(field("a", INT64, true), field("b", UTF8, true), field("c", decimal(10, 2), true), field("d", DATE32, true)));
        Schema u = new Schema(List.of(field("x", INT64, true), field("y", UTF8, true)));
        return new SqlPlanner(catalog(new TestingTpchCatalog.StubTable("t", t, Statistics.unknown(t)),
                new TestingTpchCatalog.StubTable("u", u, Statistics.unknown(u))), Map.of());
    }
}
