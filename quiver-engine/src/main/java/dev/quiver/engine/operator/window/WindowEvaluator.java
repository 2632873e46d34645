package dev.quiver.engine.operator.window;

import org.apache.arrow.vector.FieldVector;

/**
 * Computes one window expression over one {@link WindowChunk}: created for the chunk (doing the
 * work all rows share, reserved through the chunk), then asked for the values of consecutive row
 * ranges as the chunk's batches are emitted.
 */
interface WindowEvaluator extends AutoCloseable {
    /** The values of rows {@code [from, from + count)} of the chunk, as a new vector the caller owns. */
    FieldVector evaluate(int from, int count);

    /** Releases what the evaluator holds beyond the chunk's shared state. */
    @Override
    default void close() {}

    /** The evaluator of {@code expr} over {@code chunk}. */
    static WindowEvaluator create(WindowExpr expr, WindowChunk chunk) {
        WindowFunction function = expr.function();
        if (function instanceof WindowFunction.RowNumber) {
            return new RowNumberEvaluator(chunk, expr.outputField());
        }
        if (function instanceof WindowFunction.Rank rank) {
            return new RankEvaluator(rank.kind(), chunk, expr.outputField());
        }
        if (function instanceof WindowFunction.Ntile ntile) {
            return new NtileEvaluator(ntile, chunk, expr.outputField());
        }
        if (function instanceof WindowFunction.LagLead lagLead) {
            return new LagLeadEvaluator(lagLead, chunk, expr.outputField());
        }
        if (function instanceof WindowFunction.FrameValue value) {
            return new FrameValueEvaluator(value, chunk.frame(expr.frame()), chunk, expr.outputField());
        }
        WindowFunction.Aggregate aggregate = (WindowFunction.Aggregate) function;
        return AggregateEvaluators.create(aggregate.aggregate(), chunk.frame(expr.frame()), chunk, expr.outputField());
    }
}
