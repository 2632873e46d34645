/**
 * Window functions: {@link dev.quiver.engine.operator.window.WindowExec} (the plan node, over input
 * sorted on its partition and order keys), {@code WindowStream} (one partition's state machine:
 * buffer complete window partitions, evaluate them as a chunk, emit), {@code PartitionLayout}
 * (partitions and peer groups), {@code FrameBounds} and {@code RangeKeys} (the frame of every row:
 * ROWS, RANGE with numeric and interval offsets, GROUPS, exclusions), and one evaluator per kind of
 * function: ranking ({@code RowNumberEvaluator}, {@code RankEvaluator}, {@code NtileEvaluator}),
 * offsets ({@code LagLeadEvaluator}), frame values ({@code FrameValueEvaluator}) and aggregates
 * ({@code SegmentTreeAggregate}, {@code FrameScanAggregate}), which run the engine's own aggregate
 * accumulators through {@link dev.quiver.engine.operator.aggregate.GroupAccumulator}.
 *
 * <p>Memory: the rows a partition of the operator holds (at least one whole window partition) and
 * the state of the chunk being evaluated are reserved as {@code WindowExec[partition=N]}.
 */
package dev.quiver.engine.operator.window;
