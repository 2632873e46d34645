package dev.quiver.engine.operator.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.GeneratedExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A cancelled query's exchanges end with QUERY_CANCELLED, never with an end of stream: their
 * producers stop early when the task is cancelled, and a consumer that then found every producer
 * finished took it for the end of the input, so a killed query returned a truncated result as if
 * it were complete (seen as a client's KILL QUERY whose stream ended cleanly). The channel and
 * repartition tests set that order up and fail without the fix; the operator tests check the same
 * contract end to end, where the race is timing-dependent (they passed without the fix when tried).
 */
class ExchangeCancellationTest {
    private static final ColumnExpr V = new ColumnExpr(0, "v", QuiverTypes.INT64, false);

    private static TestingContext testing() {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(64, 2));
    }

    @Test
    void aChannelWhoseProducersStoppedForACancelThrowsTheCancel() {
        try (TestingContext testing = testing()) {
            TaskContext context = testing.context();
            BatchChannel channel = new BatchChannel(4, 1);
            context.cancel("cancelled by the user");
            channel.finish();
            assertCancelled(() -> channel.receive(context));
        }
    }

    @Test
    void aRepartitionWhoseProducersStoppedForACancelThrowsTheCancel() {
        try (TestingContext testing = testing()) {
            TaskContext context = testing.context();
            RepartitionState state = new RepartitionState(2, 1, 4);
            context.cancel("cancelled by the user");
            state.producerFinished();
            assertCancelled(() -> state.receive(0, context));
            assertCancelled(() -> state.receive(1, context));
        }
    }

    @Test
    void aCancelWhileACoalesceIsReadEndsItsStreamWithTheCancel() {
        cancelWhileReading(CoalescePartitionsExec::new);
    }

    @Test
    void aCancelWhileARepartitionIsReadEndsItsStreamWithTheCancel() {
        cancelWhileReading(input -> new RepartitionExec(input, new Partitioning.Hash(List.of(V), 1)));
    }

    /** Reads a few batches of an endless input, cancels, then reads on: every round must end with the cancel. */
    private static void cancelWhileReading(Function<GeneratedExec, ExecutionPlan> exchange) {
        for (int round = 0; round < 50; round++) {
            GeneratedExec input = GeneratedExec.infinite(3, 100);
            try (TestingContext testing = testing()) {
                BatchStream stream = exchange.apply(input).execute(0, testing.context());
                try {
                    for (int i = 0; i < 3; i++) {
                        try (VectorSchemaRoot batch = stream.next()) {
                            assertThat(batch).isNotNull();
                        }
                    }
                    testing.context().cancel("cancelled by the user");
                    // give the producers time to see the cancel and finish, so that the consumer finds them all gone
                    Thread.sleep(round % 5);
                    assertCancelled(() -> {
                        VectorSchemaRoot batch;
                        while ((batch = stream.next()) != null) {
                            batch.close();
                        }
                        throw new AssertionError("the stream of a cancelled query ended as if its input had");
                    });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                } finally {
                    stream.close();
                }
                assertThat(testing.allocator().getAllocatedMemory()).isZero();
            }
        }
    }

    private static void assertCancelled(org.assertj.core.api.ThrowableAssert.ThrowingCallable read) {
        assertThatThrownBy(read).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
    }
}
