package dev.quiver.engine.error;

import static dev.quiver.engine.memory.ByteSize.formatBytes;

/**
 * A memory reservation could not grow: the message names the operator (consumer), the request,
 * and the pool's use and limit, so that the user can raise the limit or change the query.
 */
public final class ResourcesExhaustedException extends QuiverException {
    private static final long serialVersionUID = 1L;

    private final String consumer;
    private final long requestedBytes;
    private final long poolUsedBytes;
    private final long poolLimitBytes;

    public ResourcesExhaustedException(String consumer, long requestedBytes, long poolUsedBytes, long poolLimitBytes) {
        this(consumer, requestedBytes, poolUsedBytes, poolLimitBytes, "");
    }

    /** @param detail appended to the message, e.g. why spilling could not help */
    public ResourcesExhaustedException(String consumer, long requestedBytes, long poolUsedBytes, long poolLimitBytes, String detail) {
        super(ErrorCode.EXCEEDED_MEMORY_LIMIT, String.format(
                "Resources exhausted: %s could not reserve %s more; the memory pool has %s of %s in use%s",
                consumer, formatBytes(requestedBytes), formatBytes(poolUsedBytes), formatBytes(poolLimitBytes), detail));
        this.consumer = consumer;
        this.requestedBytes = requestedBytes;
        this.poolUsedBytes = poolUsedBytes;
        this.poolLimitBytes = poolLimitBytes;
    }

    public String consumer() {
        return consumer;
    }

    public long requestedBytes() {
        return requestedBytes;
    }

    public long poolUsedBytes() {
        return poolUsedBytes;
    }

    public long poolLimitBytes() {
        return poolLimitBytes;
    }
}
