package dev.quiver.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.sql.planner.TpchQueries.TpchQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TpchPlanningTest {
    private static final TestingTpchCatalog CATALOG = new TestingTpchCatalog();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void plansWithoutCorrelationsSargsOrSubQueries(int number) {
        LogicalPlan plan = plan(number);

        assertThat(PlanInvariants.violations(plan.root())).isEmpty();
        assertThat(plan.columnNames()).hasSize(plan.root().getRowType().getFieldCount());
        for (TableScan scan : nodes(plan.root(), TableScan.class)) {
            TableSource source = scan.getTable().unwrap(TableSource.class);
            assertThat(source).isNotNull();
            assertThat(CATALOG.table(source.name())).containsSame(source);
        }
    }

    /** With the real TPC-H catalog's statistics (exact keys, estimated distinct counts), at two scale factors. */
    @ParameterizedTest
    @ValueSource(doubles = {0.01, 1})
    void plansWithTheTpchCatalog(double scaleFactor) {
        try (TpchCatalog catalog = new TpchCatalog(scaleFactor)) {
            for (int number = 1; number <= 22; number++) {
                TpchQuery query = TpchQueries.query(number);
                LogicalPlan plan = new SqlPlanner(catalog, query.views()).plan(query.sql());
                assertThat(PlanInvariants.violations(plan.root())).as("q%d", number).isEmpty();
                if (number == 5) {
                    assertJoinsOnKeys(plan.root());
                }
            }
        }
    }

    /**
     * q5 must not start with a many-to-many join such as customer ⋈ supplier on nationkey: lineitem
     * first meets a side holding one of the tables its foreign keys point to, never customer alone.
     */
    @Test
    void q5JoinsOnKeysWithLineitemProbingAForeignKeyTable() {
        RelNode root = plan(5).root();
        List<Join> joins = nodes(root, Join.class);

        assertThat(joins).hasSize(5);
        assertJoinsOnKeys(root);
        List<String> other = tables(join(joinWithScanOf(joins, "lineitem"), "lineitem"));
        assertThat(other).containsAnyOf("orders", "supplier").doesNotContain("lineitem");
    }

    /**
     * q9: lineitem ⋈ partsupp on (partkey, suppkey) is a foreign-key join keeping every lineitem
     * row, so the few parts named '%green%' must join lineitem before partsupp does.
     */
    @Test
    void q9JoinsTheFilteredPartBeforePartsupp() {
        List<Join> joins = nodes(plan(9).root(), Join.class);

        Join partsuppJoin = joinWithScanOf(joins, "partsupp");
        assertThat(tables(join(partsuppJoin, "partsupp"))).contains("part", "lineitem");
        assertThat(partsuppJoin.analyzeCondition().leftKeys).hasSize(2);
    }

    /**
     * q17: the average quantity per part is computed only over the lineitem rows of the parts that
     * pass the brand and container filter (a semi join below the aggregate), not for all parts.
     */
    @Test
    void q17ReducesTheAggregatedLineitemToTheFilteredParts() {
        List<Aggregate> aggregates = nodes(plan(17).root(), Aggregate.class);
        Aggregate perPart = aggregates.stream().filter(aggregate -> aggregate.getGroupCount() == 1).findFirst().orElseThrow();

        Join semi = (Join) perPart.getInput();
        assertThat(semi.getJoinType()).isEqualTo(JoinRelType.SEMI);
        assertThat(tables(semi.getLeft())).containsExactly("lineitem");
        assertThat(tables(semi.getRight())).containsExactly("part");
        assertThat(nodes(semi.getRight(), Filter.class)).isNotEmpty();
    }

    /** A declared key of several columns is unique: DISTINCT over it goes, over part of it stays. */
    @Test
    void compositePrimaryKeysAreUnique() {
        assertThat(nodes(plan("select distinct ps_partkey, ps_suppkey from partsupp").root(), Aggregate.class)).isEmpty();
        assertThat(nodes(plan("select distinct l_linenumber, l_orderkey from lineitem").root(), Aggregate.class)).isEmpty();
        assertThat(nodes(plan("select distinct ps_partkey from partsupp").root(), Aggregate.class)).hasSize(1);
        assertThat(nodes(plan("select distinct l_orderkey, l_partkey from lineitem").root(), Aggregate.class)).hasSize(1);
    }

    private static LogicalPlan plan(String sql) {
        return new SqlPlanner(CATALOG, Map.of()).plan(sql);
    }

    /** The join that has a scan of {@code table} alone as one of its inputs. */
    private static Join joinWithScanOf(List<Join> joins, String table) {
        return joins.stream()
                .filter(join -> tables(join.getLeft()).equals(List.of(table)) || tables(join.getRight()).equals(List.of(table)))
                .findFirst().orElseThrow();
    }

    /** Every join has an equi-key that is unique on one side: no many-to-many join. */
    private static void assertJoinsOnKeys(RelNode root) {
        RelMetadataQuery mq = root.getCluster().getMetadataQuery();
        for (Join join : nodes(root, Join.class)) {
            JoinInfo info = join.analyzeCondition();
            assertThat(info.leftKeys).as("equi-keys of %s", join).isNotEmpty();
            boolean leftUnique = Boolean.TRUE.equals(mq.areColumnsUnique(join.getLeft(), ImmutableBitSet.of(info.leftKeys)));
            boolean rightUnique = Boolean.TRUE.equals(mq.areColumnsUnique(join.getRight(), ImmutableBitSet.of(info.rightKeys)));
            assertThat(leftUnique || rightUnique).as("join on a key: %s", join).isTrue();
        }
    }

    @Test
    void q13KeepsTheQueryColumnNamesAndLeftJoin() {
        LogicalPlan plan = plan(13);

        assertThat(plan.columnNames()).containsExactly("c_count", "custdist");
        List<Join> joins = nodes(plan.root(), Join.class);
        assertThat(joins).extracting(Join::getJoinType).containsExactly(JoinRelType.LEFT);
        assertThat(tables(joins.get(0).getLeft())).containsExactly("customer");
    }

    @Test
    void q21UsesSemiAndAntiJoinsWithoutReplicatingTheOuterJoin() {
        List<Join> joins = nodes(plan(21).root(), Join.class);

        assertThat(joins).extracting(Join::getJoinType)
                .containsExactlyInAnyOrder(JoinRelType.ANTI, JoinRelType.SEMI, JoinRelType.INNER, JoinRelType.INNER, JoinRelType.INNER);
    }

    /** q18's IN (... HAVING sum > 300) is over unique order keys: an inner join that filters orders before lineitem joins. */
    @Test
    void q18JoinsTheLargeOrdersBeforeLineitem() {
        List<Join> joins = nodes(plan(18).root(), Join.class);

        assertThat(joins).extracting(Join::getJoinType).containsOnly(JoinRelType.INNER).hasSize(3);
        Join lineitemJoin = joins.stream()
                .filter(join -> tables(join.getLeft()).equals(List.of("lineitem")) || tables(join.getRight()).equals(List.of("lineitem")))
                .findFirst().orElseThrow();
        assertThat(tables(join(lineitemJoin, "lineitem"))).containsExactlyInAnyOrder("orders", "lineitem", "customer");
    }

    @Test
    void q16NotInOverNotNullColumnsIsAnAntiJoin() {
        assertThat(nodes(plan(16).root(), Join.class)).extracting(Join::getJoinType)
                .containsExactlyInAnyOrder(JoinRelType.INNER, JoinRelType.ANTI);
    }

    @Test
    void q19JoinHasAnEquiKey() {
        Join join = nodes(plan(19).root(), Join.class).get(0);

        assertThat(join.analyzeCondition().leftKeys).hasSize(1);
    }

    static LogicalPlan plan(int number) {
        TpchQuery query = TpchQueries.query(number);
        return new SqlPlanner(CATALOG, query.views()).plan(query.sql());
    }

    /** The side of {@code join} that is not a scan of {@code table} alone. */
    private static RelNode join(Join join, String table) {
        return tables(join.getLeft()).equals(List.of(table)) ? join.getRight() : join.getLeft();
    }

    static List<String> tables(RelNode node) {
        return nodes(node, TableScan.class).stream().map(scan -> scan.getTable().getQualifiedName().get(1)).toList();
    }

    static <T> List<T> nodes(RelNode root, Class<T> type) {
        List<T> found = new ArrayList<>();
        root.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (type.isInstance(other)) {
                    found.add(type.cast(other));
                }
                return super.visit(other);
            }
        });
        return found;
    }
}
