package dev.quiver.engine.batch;

import dev.quiver.engine.execution.PlanChecks;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/** Building, measuring and reading whole batches. */
public final class Batches {
    private Batches() {}

    /** A batch of {@code schema} holding {@code rows} (Java values as in {@link VectorValues}). */
    public static VectorSchemaRoot fromRows(Schema schema, List<? extends List<?>> rows, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            root.allocateNew();
            for (int r = 0; r < rows.size(); r++) {
                List<?> row = rows.get(r);
                if (row.size() != schema.getFields().size()) {
                    throw PlanChecks.planError("rows", "row %s has %s values but the schema %s columns", r, row.size(), schema.getFields().size());
                }
                for (int c = 0; c < row.size(); c++) {
                    VectorValues.set(root.getVector(c), r, row.get(c));
                }
            }
            root.setRowCount(rows.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** The rows of a batch as lists of Java values. */
    public static List<List<Object>> toRows(VectorSchemaRoot batch) {
        List<List<Object>> rows = new ArrayList<>(batch.getRowCount());
        List<FieldVector> vectors = batch.getFieldVectors();
        for (int r = 0; r < batch.getRowCount(); r++) {
            List<Object> row = new ArrayList<>(vectors.size());
            for (FieldVector vector : vectors) {
                row.add(VectorValues.get(vector, r));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Bytes the batch's buffers occupy, for metrics and memory reservations. */
    public static long sizeInBytes(VectorSchemaRoot batch) {
        long bytes = 0;
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    /** A batch made of the given vectors (ownership moves to the batch). */
    public static VectorSchemaRoot of(Schema schema, List<FieldVector> vectors, int rowCount) {
        return new VectorSchemaRoot(schema.getFields(), vectors, rowCount);
    }

    /**
     * {@code vector} under {@code field}'s name and nullability: itself when its field is that, else
     * a zero-copy transfer. Takes ownership of {@code vector}.
     */
    public static FieldVector withField(FieldVector vector, Field field, BufferAllocator allocator) {
        if (vector.getField().equals(field)) {
            return vector;
        }
        try (vector) {
            TransferPair transfer = vector.getTransferPair(field, allocator);
            transfer.transfer();
            return (FieldVector) transfer.getTo();
        }
    }

    /** An empty batch of {@code schema}. */
    public static VectorSchemaRoot empty(Schema schema, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();
        root.setRowCount(0);
        return root;
    }
}
