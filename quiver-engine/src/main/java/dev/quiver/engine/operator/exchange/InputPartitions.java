package dev.quiver.engine.operator.exchange;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens every partition of an exchange's input on the thread that starts the exchange, before any
 * producer thread runs. Opening a stream opens the memory reservations of the operators beneath it;
 * opened together, the spillable ones (a sort per partition, say) share the pool fairly from their
 * first row, instead of the first producer to be scheduled growing into the whole pool while its
 * siblings have not yet been counted, and those siblings then finding nothing left they could spill.
 */
final class InputPartitions {
    private InputPartitions() {}

    /** A stream for each of {@code input}'s partitions, in order; none is left open if one fails to open. */
    static List<BatchStream> open(ExecutionPlan input, TaskContext context) {
        int count = input.outputPartitioning().partitionCount();
        List<BatchStream> streams = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                streams.add(input.execute(i, context));
            }
            return streams;
        } catch (RuntimeException | Error e) {
            closeAll(streams, e);
            throw e;
        }
    }

    /** Closes {@code streams} (those no producer took), recording a failure to close on {@code cause}. */
    static void closeAll(List<BatchStream> streams, Throwable cause) {
        for (BatchStream stream : streams) {
            try {
                stream.close();
            } catch (RuntimeException | Error suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }
}
