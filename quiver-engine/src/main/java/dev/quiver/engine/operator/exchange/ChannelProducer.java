package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Drains one opened input partition into a {@link BatchChannel} on a producer thread. It stops when
 * the channel's consumer closes it or the task is cancelled, always closes the input stream, and
 * reports a failure to the task and the channel (unless the consumer has already gone).
 */
final class ChannelProducer implements Runnable {
    private final BatchStream stream;
    private final TaskContext context;
    private final BatchChannel channel;

    ChannelProducer(BatchStream stream, TaskContext context, BatchChannel channel) {
        this.stream = requireNonNull(stream, "stream is null");
        this.context = requireNonNull(context, "context is null");
        this.channel = requireNonNull(channel, "channel is null");
    }

    @Override
    public void run() {
        try {
            while (!channel.isClosed() && !context.isCancelled()) {
                VectorSchemaRoot batch = stream.next();
                if (batch == null) {
                    break;
                }
                if (batch.getRowCount() == 0) {
                    batch.close();
                } else if (!channel.send(batch, context)) {
                    break;
                }
            }
        } catch (Throwable t) {
            report(t);
        } finally {
            try {
                stream.close();
            } catch (Throwable t) {
                report(t);
            }
            channel.finish();
        }
    }

    private void report(Throwable t) {
        if (channel.isClosed()) {
            return;
        }
        RuntimeException error = BatchChannel.asRuntime(t);
        context.fail(error);
        channel.fail(error);
    }
}
