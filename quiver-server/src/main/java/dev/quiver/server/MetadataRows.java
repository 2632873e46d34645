package dev.quiver.server;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/** Sends the small results of catalog calls (text and binary columns) and serializes schemas as Flight SQL carries them. */
final class MetadataRows {
    private MetadataRows() {}

    /** Sends {@code rows} (each value a String, byte[] or null) in one batch and completes the stream. */
    static void send(Schema schema, List<List<Object>> rows, BufferAllocator allocator, ServerStreamListener listener) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            for (int r = 0; r < rows.size(); r++) {
                List<Object> row = rows.get(r);
                for (int c = 0; c < row.size(); c++) {
                    set(root.getVector(c), r, row.get(c));
                }
            }
            root.setRowCount(rows.size());
            listener.start(root);
            listener.putNext();
        }
        listener.completed();
    }

    /** A schema as an IPC message, as Flight SQL sends dataset, parameter and table schemas. */
    static byte[] serialize(Schema schema) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void set(FieldVector vector, int index, Object value) {
        if (value == null) {
            vector.setNull(index);
        } else if (vector instanceof VarCharVector text) {
            text.setSafe(index, value.toString().getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof VarBinaryVector binary) {
            binary.setSafe(index, (byte[]) value);
        } else {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "catalog rows hold text and binary values only, not " + vector.getField());
        }
    }
}
