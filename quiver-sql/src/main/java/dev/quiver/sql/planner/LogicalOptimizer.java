package dev.quiver.sql.planner;

import dev.quiver.sql.physical.EngineRexExecutor;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RuleSets;

/**
 * The logical optimizer: a fixed sequence of passes from the converted plan of a query to a
 * decorrelated plan with pushed-down filters, folded constants and ordered joins. Every pass
 * keeps the plan logical (Calcite {@code Logical*} nodes). The order matters; see each step.
 */
final class LogicalOptimizer {
    /** Guards every Hep phase against rules that undo each other. */
    private static final int MATCH_LIMIT = 10_000;

    private static final List<RelOptRule> SUB_QUERY_REMOVAL = List.of(
            CoreRules.FILTER_SUB_QUERY_TO_CORRELATE, CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);

    // INTERSECT and EXCEPT (distinct) as semi/anti joins. (GROUPING SETS stay: the engine expands them in one pass.)
    /** Simplification and constant folding, as the SQL converter would have done them. */
    private static final List<RelOptRule> REDUCTION = List.of(
            CoreRules.PROJECT_REDUCE_EXPRESSIONS, CoreRules.FILTER_REDUCE_EXPRESSIONS, CoreRules.JOIN_REDUCE_EXPRESSIONS);
    private static final List<RelOptRule> SET_OPERATIONS = List.of(CoreRules.INTERSECT_TO_SEMI_JOIN, CoreRules.MINUS_TO_ANTI_JOIN);

    // Alone in their phase: together with FILTER_INTO_JOIN/JOIN_CONDITION_PUSH they loop on q7/q19.
    private static final List<RelOptRule> DISJUNCTION_EXPANSION = List.of(
            CoreRules.EXPAND_FILTER_DISJUNCTION_LOCAL, CoreRules.EXPAND_JOIN_DISJUNCTION_LOCAL);

    // JOIN_PUSH_EXPRESSIONS: a join key that needs a cast (ON or WHERE) is computed below the join,
    // so it stays a hash-join key (sql2rel no longer pushes them, see SqlPlanner).
    private static final List<RelOptRule> SIMPLIFICATION = List.of(
            CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH, CoreRules.JOIN_PUSH_EXPRESSIONS, CoreRules.FILTER_PROJECT_TRANSPOSE,
            CoreRules.FILTER_AGGREGATE_TRANSPOSE, CoreRules.FILTER_MERGE,
            CoreRules.FILTER_REDUCE_EXPRESSIONS, CoreRules.PROJECT_REDUCE_EXPRESSIONS, CoreRules.JOIN_REDUCE_EXPRESSIONS,
            CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, CoreRules.AGGREGATE_PROJECT_MERGE, CoreRules.AGGREGATE_REMOVE,
            CoreRules.PROJECT_TO_SEMI_JOIN, CoreRules.JOIN_TO_SEMI_JOIN, CoreRules.MARK_TO_SEMI_OR_ANTI_JOIN_RULE,
            NullSafeNullComparison.INSTANCE);

    // No PROJECT_JOIN_TRANSPOSE: it moves parts of join conditions into projections as booleans.
    private static final List<RelOptRule> CLEANUP = List.of(
            CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH, CoreRules.JOIN_PUSH_EXPRESSIONS, CoreRules.FILTER_PROJECT_TRANSPOSE,
            CoreRules.FILTER_MERGE, CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, CoreRules.AGGREGATE_PROJECT_MERGE,
            CoreRules.PROJECT_TO_SEMI_JOIN, CoreRules.JOIN_TO_SEMI_JOIN);

    private static final List<RelOptRule> WINDOW_PRUNING = List.of(
            CoreRules.PROJECT_WINDOW_TRANSPOSE, CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);

    private static final HepProgram JOIN_ORDER = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addMatchLimit(MATCH_LIMIT)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleCollection(List.of(CoreRules.PROJECT_MULTI_JOIN_MERGE, CoreRules.FILTER_MULTI_JOIN_MERGE))
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    private LogicalOptimizer() {}

    static RelNode optimize(RelNode converted) {
        RelOptCluster cluster = converted.getCluster();
        cluster.setMetadataQuerySupplier(() -> new RelMetadataQuery(KeyAwareRowCount.PROVIDER));
        RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, null);

        // First: rows multiplied by UNNEST are a relational operator before any rule sees the plan.
        RelNode rel = ExistsToSemiAnti.rewrite(Unnests.apply(converted));
        rel = hep(rel, HepMatchOrder.DEPTH_FIRST, SUB_QUERY_REMOVAL);
        // Before the first fold: it pulls predicates up through set operations, whose inputs must have their types.
        rel = SetOperationInputTypes.apply(rel);
        // The converter does not simplify (SqlPlanner: it would take `x IN (sub-query)` for NOT NULL);
        // the decorrelator needs the constants folded (a DISTINCT of 11 / 1 beside a correlated sub-query).
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, REDUCTION);
        // Before decorrelation, which mishandles constant grouping keys.
        rel = ConstantGroupKeys.apply(rel);
        // An empty rule set: the default decorrelation rules give a worse q20 (aggregating all outer columns).
        rel = RelDecorrelator.decorrelateQuery(rel, relBuilder, RuleSets.ofList(), null);
        // sql2rel's trimming is forced off by the planner and would be wrong before decorrelation (CALCITE-842).
        rel = new UnnestFieldTrimmer(relBuilder).trim(rel);
        rel = AggregateRewrites.apply(rel);
        rel = SetOperationsAll.apply(rel, relBuilder);
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, SET_OPERATIONS);
        rel = ConditionFactoring.apply(rel);
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, DISJUNCTION_EXPANSION);
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, SIMPLIFICATION);
        rel = run(rel, JOIN_ORDER);
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, CLEANUP);
        // After join ordering: the reduction duplicates a filtered scan the orderer need not see twice.
        rel = SemiJoinReduction.apply(rel, relBuilder);
        rel = new UnnestFieldTrimmer(relBuilder).trim(rel);
        rel = RightToLeftJoins.apply(rel, relBuilder);
        rel = NullSafeEquality.apply(rel);
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, List.of(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW));
        // A Window passes every input column on: prune those no one above or in it reads, so that the
        // scan, the repartition and the sort below it carry only what is used.
        rel = hep(rel, HepMatchOrder.BOTTOM_UP, WINDOW_PRUNING);
        return SupportedPlan.check(DateComparisonNarrowing.apply(SearchExpansion.apply(rel)));
    }

    private static RelNode hep(RelNode rel, HepMatchOrder order, List<RelOptRule> rules) {
        return run(rel, new HepProgramBuilder().addMatchOrder(order).addMatchLimit(MATCH_LIMIT).addRuleCollection(rules).build());
    }

    private static RelNode run(RelNode rel, HepProgram program) {
        HepPlanner planner = new HepPlanner(program);
        planner.setExecutor(EngineRexExecutor.INSTANCE);
        planner.setRoot(rel);
        return planner.findBestExp();
    }
}
