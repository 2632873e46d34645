package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.operator.ExchangeClient;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ReferenceManager;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A remote-partition reader whose thread is interrupted (its task's executor shutting down) while
 * the producer keeps sending. The reader then closes its Flight stream with the interrupt flag set,
 * and {@code FlightStream.close()} stops draining at once ({@code RuntimeException} around an
 * {@code InterruptedException}, which it does not catch): the batches Flight had already parsed
 * and queued, and those still arriving, stayed in the {@code flight-client} allocator for good, and
 * closing the connections reported "Memory was leaked".
 */
class InterruptedReaderTest {
    @Test
    void aReaderInterruptedWhileTheProducerKeepsSendingReleasesItsStream() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId producer = new TaskId("i1", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(producer, new EndlessExec(), Optional.of(head),
                    Map.of("batch_size", "1000", "distributed.compression", "NONE")), new RecordingListener());
            // the reading task's own threads, so that closing them interrupts only its reader
            QuiverExecutor readers = new QuiverExecutor("interrupted-reader");
            BufferAllocator allocator = cluster.root.newChildAllocator("i1.s2.t0", 0, Long.MAX_VALUE);
            TaskContext context = new TaskContext("i1.s2.t0", allocator, MemoryPool.unlimited(), readers, new ExecutionConfig(1000, 2),
                    Map.of(ExchangeClient.class, cluster.connections.exchangeClient()));
            BatchStream stream = cluster.connections.exchangeClient().open(List.of(cluster.source(0, producer, 0, head, 0)),
                    EndlessExec.SCHEMA, context);
            long oneBatch;
            try (VectorSchemaRoot first = stream.next()) {
                oneBatch = accountedBytes(first);
            }
            // nothing reads any more: two batches queue up and the reader waits, holding a third, to queue it
            awaitAllocated(allocator, 2 * oneBatch + 1);
            readers.close();
            stream.close();
            control.abort("the test is done");
            control.close();
            context.close();
            allocator.close();
            cluster.assertWorkersClean();
            awaitAllocated(cluster.root, 0);
            assertThat(cluster.root.getAllocatedMemory()).as("Arrow bytes left on the reading side: %s", cluster.root.getChildAllocators())
                    .isZero();
        }
    }

    /** The bytes {@code batch}'s buffers are accounted for (slices of one message body count once). */
    private static long accountedBytes(VectorSchemaRoot batch) {
        Map<ReferenceManager, Long> ledgers = new IdentityHashMap<>();
        for (FieldVector vector : batch.getFieldVectors()) {
            for (ArrowBuf buffer : vector.getBuffers(false)) {
                ledgers.put(buffer.getReferenceManager(), buffer.getReferenceManager().getAccountedSize());
            }
        }
        return ledgers.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Waits (up to 10 s) until {@code allocator} holds at least {@code bytes}, or, for 0, nothing. */
    private static void awaitAllocated(BufferAllocator allocator, long bytes) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && (bytes == 0 ? allocator.getAllocatedMemory() > 0 : allocator.getAllocatedMemory() < bytes)) {
            TestCluster.sleep(10);
        }
    }
}
