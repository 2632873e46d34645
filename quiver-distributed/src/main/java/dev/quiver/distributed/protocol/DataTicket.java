package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;


/**
 * What a consumer asks a worker for with one Flight DoGet: output partition {@code partition} of
 * producer task {@code producerTask} under {@code head}, on behalf of consumer task
 * {@code consumerTaskIndex} (which a broadcast needs to count replays and a shuffle to check its
 * partition range).
 */
public record DataTicket(TaskId producerTask, int partition, ProducerHead head, int consumerTaskIndex) {
    public DataTicket {
        requireNonNull(producerTask, "producerTask is null");
        requireNonNull(head, "head is null");
        if (partition < 0 || consumerTaskIndex < 0) {
            throw new IllegalArgumentException("partition and consumer task must not be negative: " + partition + ", " + consumerTaskIndex);
        }
    }
}
