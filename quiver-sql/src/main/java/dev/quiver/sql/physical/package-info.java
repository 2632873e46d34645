/**
 * Calcite logical plans to executable {@link dev.quiver.engine.execution.ExecutionPlan}s
 * ({@link dev.quiver.sql.physical.PhysicalPlanner}).
 *
 * <h2>Invariants</h2>
 * <ul>
 * <li>One class per concern: the walk ({@code PhysicalPlanner}), scans with their filter and
 *     projection ({@code ScanPlanner}), aggregates ({@code AggregatePlanner}), joins
 *     ({@code JoinPlanner}), sorts and limits ({@code SortPlanner}), expressions
 *     ({@code RexTranslator}, {@code Literals}) and types ({@code TypeMapping}).
 * <li>Column references take type and nullability from the physical input schema; every other
 *     expression takes Calcite's type of the call as its result type.
 * <li>Join build side: the input with the smaller Calcite row-count estimate. Collected once when
 *     estimated at most {@link dev.quiver.sql.physical.PhysicalPlannerOptions#collectLeftMaxRows()}
 *     rows, else both sides hash-partitioned on keys cast to a common type. Null-safe keys
 *     ({@code IS NOT DISTINCT FROM}) join on {@code (COALESCE(key, placeholder), key IS NULL)}.
 * <li>Aggregates are two-phase (PARTIAL, repartition or coalesce, FINAL) unless DISTINCT or the
 *     input has one partition (SINGLE).
 * <li>The output columns carry the query's names ({@code LogicalPlan.columnNames}), not the
 *     optimized rel's.
 * <li>What cannot be translated fails with {@code NOT_SUPPORTED} naming the operator, function or
 *     type.
 * </ul>
 */
package dev.quiver.sql.physical;
