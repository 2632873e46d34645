/**
 * SQL text to an optimized Calcite logical plan ({@link dev.quiver.sql.planner.SqlPlanner}).
 *
 * <h2>What the physical planner meets</h2>
 * <ul>
 * <li>Nodes: {@code LogicalTableScan} (its table unwraps to the
 *     {@link dev.quiver.engine.spi.TableSource}), {@code LogicalFilter}, {@code LogicalProject},
 *     {@code LogicalJoin}, {@code LogicalAggregate} (simple grouping only), {@code LogicalSort}
 *     (collation and/or {@code offset}/{@code fetch} literals), {@code LogicalUnion},
 *     {@code LogicalValues} (possibly with no rows), {@link dev.quiver.sql.planner.LogicalReplicate}
 *     (INTERSECT ALL / EXCEPT ALL), {@link dev.quiver.sql.planner.LogicalUnnest} (UNNEST, in the
 *     select list or FROM: no correlate or UNNEST call is left), {@code LogicalRepeatUnion} over {@code LogicalTableSpool}s whose
 *     recursive side scans the CTE's transient table (WITH RECURSIVE). Nothing else, checked by
 *     {@code SupportedPlan}.
 * <li>Joins: INNER, LEFT, FULL, SEMI, ANTI; never RIGHT (swapped to LEFT under a Project), never
 *     LEFT_MARK. SEMI and ANTI output the left input's columns only. A condition may be
 *     {@code true} (cross join, e.g. to a one-row aggregate), purely non-equi (q11, q22), or
 *     equi-keys plus a residual (q17, q20, q21): split it with {@code join.analyzeCondition()}.
 *     Keys compared with {@code IS NOT DISTINCT FROM} (null-safe; {@code JoinInfo.nullExclusionFlags}
 *     false) remain only where a key column is nullable.
 * <li>Aggregates: COUNT, SUM, $SUM0, AVG, MIN, MAX, with or without DISTINCT, and SINGLE_VALUE for
 *     scalar sub-queries that are not known to return one row (must fail on a second row:
 *     SUBQUERY_MULTIPLE_ROWS). No FILTER arguments and no LITERAL_AGG (rewritten).
 * <li>Expressions: no sub-queries, correlation variables, SEARCH/Sarg or window functions. Constant
 *     date arithmetic is folded to DATE literals; non-constant {@code date ± interval} keeps its
 *     INTERVAL literal. Arithmetic mixes operand types without casts (the call's type is the result
 *     type); comparisons mix numeric types (INTEGER with DECIMAL, decimals of different scales).
 * <li>Names: the plan's field names may differ from the query's; use
 *     {@link dev.quiver.sql.planner.LogicalPlan#columnNames()}.
 * </ul>
 */
package dev.quiver.sql.planner;
