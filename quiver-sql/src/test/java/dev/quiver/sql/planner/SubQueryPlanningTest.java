package dev.quiver.sql.planner;

import static dev.quiver.sql.planner.TpchPlanningTest.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.sql.SqlKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sub-queries outside TPC-H: the shapes the rewrite to semi/anti joins takes, and those it leaves to Calcite. */
class SubQueryPlanningTest {
    private final SqlPlanner planner = new SqlPlanner(new TestingTpchCatalog(), Map.of());

    @ParameterizedTest
    @ValueSource(strings = {
            "select n_name from nation where exists (select * from region where r_regionkey = n_regionkey) or n_nationkey = 1",
            "select n_name from nation where (n_nationkey, n_regionkey) in (select s_nationkey, s_suppkey from supplier)",
            "select n_name from nation n where exists (select * from region r where r.r_regionkey = n.n_regionkey"
                    + " and exists (select * from supplier s where s.s_nationkey = n.n_nationkey and s.s_suppkey = r.r_regionkey))",
            "select n_regionkey, count(*) from nation group by n_regionkey having exists (select * from region where r_regionkey = n_regionkey)",
            "select n_name, n_regionkey in (select r_regionkey from region) from nation",
            "select case when exists (select * from region where r_regionkey = n_regionkey) then 1 else 0 end from nation",
            "select n_name from nation where n_nationkey not in (select s_nationkey from supplier where s_suppkey > n_nationkey)",
            "select (select max(s_acctbal) from supplier where s_nationkey = n_nationkey) from nation",
            "select * from nation, lateral (select * from region where r_regionkey = n_regionkey)",
            "select n_name from nation where exists (select * from region)",
            "select n_name from nation where n_nationkey > all (select s_nationkey from supplier)",
            "select * from nation join region on n_regionkey = r_regionkey and exists (select * from supplier where s_nationkey = n_nationkey)"})
    void planWithoutSubQueriesOrCorrelation(String sql) {
        assertThat(PlanInvariants.violations(planner.plan(sql).root())).isEmpty();
    }

    @Test
    void existsAndNotExistsWithResidualConditionsBecomeSemiAndAnti() {
        RelNode root = planner.plan("select n_name from nation where exists (select * from region where r_regionkey = n_regionkey and r_name <> n_name)"
                + " and not exists (select * from supplier where s_nationkey = n_nationkey and s_acctbal < 0)").root();

        assertThat(nodes(root, Join.class)).extracting(Join::getJoinType).containsExactlyInAnyOrder(JoinRelType.SEMI, JoinRelType.ANTI);
        Join semi = nodes(root, Join.class).stream().filter(join -> join.getJoinType() == JoinRelType.SEMI).findFirst().orElseThrow();
        assertThat(semi.analyzeCondition().leftKeys).hasSize(1);
        assertThat(semi.analyzeCondition().isEqui()).isFalse();
    }

    /** The inner IN is over unique part keys, so it is an inner join; ps_suppkey values repeat, so the outer one stays a semi join. */
    @Test
    void nestedInSubQueriesBecomeJoins() {
        RelNode root = planner.plan("select s_name from supplier where s_suppkey in"
                + " (select ps_suppkey from partsupp where ps_partkey in (select p_partkey from part where p_name like 'forest%'))").root();

        assertThat(nodes(root, Join.class)).extracting(Join::getJoinType).containsExactly(JoinRelType.SEMI, JoinRelType.INNER);
    }

    /**
     * Calcite's decorrelator drops constant grouping keys itself: with only constants it grouped by
     * nothing (a row where the input is empty), with constants among other keys it failed. They are
     * gone before it runs; without other keys the rows are counted and kept where the count is above zero.
     */
    @Test
    void constantGroupingKeysBesideACorrelatedSubQueryKeepTheirMeaning() {
        String correlated = " from nation where n_nationkey >= (select max(s_nationkey) from supplier where s_suppkey = n_nationkey)";
        RelNode distinct = planner.plan("select distinct 1, 2" + correlated).root();
        assertThat(PlanInvariants.violations(distinct)).isEmpty();
        assertThat(nodes(distinct, Aggregate.class)).anySatisfy(aggregate -> assertThat(aggregate.getGroupCount()).isZero());
        assertThat(nodes(distinct, Filter.class)).anySatisfy(filter -> assertThat(filter.getCondition().toString()).startsWith(">("));

        LogicalPlan grouped = planner.plan("select 1, n_regionkey, 2, count(*), 3" + correlated + " group by 1, 2, 3, 5");
        assertThat(grouped.root().getRowType().getFieldList()).extracting(field -> field.getType().getSqlTypeName().getName())
                .containsExactly("INTEGER", "BIGINT", "INTEGER", "BIGINT", "INTEGER");
        assertThat(nodes(grouped.root(), Aggregate.class)).anySatisfy(aggregate -> assertThat(aggregate.getGroupCount()).isEqualTo(1));
    }

    /** Calcite decorrelates a LIMIT in a correlated sub-query with ROW_NUMBER over the correlation keys: a Window. */
    @Test
    void limitInACorrelatedSubQueryBecomesARowNumberWindow() {
        RelNode root = planner.plan("select s_name, (select ps_partkey from partsupp where ps_suppkey = s_suppkey order by ps_availqty desc limit 1)"
                + " from supplier").root();

        assertThat(PlanInvariants.violations(root)).isEmpty();
        assertThat(nodes(root, Window.class)).singleElement()
                .satisfies(window -> assertThat(window.groups.get(0).aggCalls.get(0).getOperator().getKind()).isEqualTo(SqlKind.ROW_NUMBER));
    }
}
