package dev.quiver.engine.source.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One batch a {@link MemoryTableScanExec} partition reads: a {@link StoredBatch} of this process
 * ({@link Held}, shared without copying) or the same columns as Arrow IPC bytes, as they reach a
 * worker inside a task's plan ({@link Ipc}).
 */
public sealed interface MemoryChunk {
    int rowCount();

    /** Bytes of the chunk's columns, for task sizing. */
    long bytes();

    /** The chunk as a batch of {@code schema} the caller owns. */
    VectorSchemaRoot open(Schema schema, BufferAllocator allocator);

    /** The chunk as one Arrow IPC record batch message. */
    byte[] ipc(Schema schema);

    /** Columns {@code columns} of a batch this process holds. */
    record Held(StoredBatch batch, List<Integer> columns) implements MemoryChunk {
        public Held {
            requireNonNull(batch, "batch is null");
            columns = List.copyOf(requireNonNull(columns, "columns is null"));
        }

        @Override
        public int rowCount() {
            return batch.rowCount();
        }

        @Override
        public long bytes() {
            return batch.bytes(columns);
        }

        @Override
        public VectorSchemaRoot open(Schema schema, BufferAllocator allocator) {
            return batch.share(columns, schema.getFields(), allocator);
        }

        @Override
        public byte[] ipc(Schema schema) {
            return batch.toIpc(columns, schema.getFields());
        }
    }

    /** A record batch message written by {@link Held#ipc}. */
    record Ipc(byte[] message, int rowCount) implements MemoryChunk {
        public Ipc {
            requireNonNull(message, "message is null");
        }

        @Override
        public long bytes() {
            return message.length;
        }

        @Override
        public VectorSchemaRoot open(Schema schema, BufferAllocator allocator) {
            VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
            try (ArrowRecordBatch record = MessageSerializer.deserializeRecordBatch(new ReadChannel(Channels.newChannel(new ByteArrayInputStream(message))),
                    allocator)) {
                new VectorLoader(root).load(record);
                return root;
            } catch (IOException | RuntimeException e) {
                root.close();
                throw new QuiverException(ErrorCode.PLAN_ERROR, "cannot read a batch of an in-memory table from its task plan: " + e.getMessage(), e);
            }
        }

        @Override
        public byte[] ipc(Schema schema) {
            return message;
        }
    }
}
