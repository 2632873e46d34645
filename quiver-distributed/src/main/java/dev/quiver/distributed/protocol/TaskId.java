package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;


/** One task of a distributed query: task {@code taskIndex} of stage {@code stageId} of query {@code queryId}. */
public record TaskId(String queryId, int stageId, int taskIndex) {
    public TaskId {
        requireNonNull(queryId, "queryId is null");
        if (stageId < 0 || taskIndex < 0) {
            throw new IllegalArgumentException("stage id and task index must not be negative: " + stageId + ", " + taskIndex);
        }
    }

    /** The name used in thread names, logs and errors, e.g. {@code q12.s3.t1}. */
    @Override
    public String toString() {
        return queryId + ".s" + stageId + ".t" + taskIndex;
    }
}
