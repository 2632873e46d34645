package dev.quiver.distributed.operator;

import dev.quiver.distributed.protocol.ColumnSample;
import dev.quiver.distributed.protocol.DriverState;
import dev.quiver.distributed.protocol.KeySketch;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.exchange.PartitionHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The running counts of one partition's sample: rows, bytes, per-column nulls and sketches, and the
 * key sketches of consecutive pieces of rows (half batches, merged pairwise past
 * {@link #MAX_PIECES}), from which the key sketch (all pieces) and the first half's sketch are made
 * at the end: a HyperLogLog union is exact, so each key hash is added to one sketch only.
 */
final class SampleAccumulator {
    private static final int MAX_PIECES = 16;

    private record Piece(KeySketch sketch, long rows) {}

    private final Schema schema;
    private final List<PhysicalExpr> keys;
    private final long[] nulls;
    private final KeySketch[] columnSketches;
    private final List<Piece> pieces = new ArrayList<>();
    private long rows;
    private long bytes;
    private int batches;

    SampleAccumulator(Schema schema, List<PhysicalExpr> keys) {
        this.schema = schema;
        this.keys = keys;
        int columns = schema.getFields().size();
        this.nulls = new long[columns];
        this.columnSketches = new KeySketch[columns];
        for (int i = 0; i < columns; i++) {
            // the partition hash covers no nested type (lists, maps, structs): their distinct fraction stays unknown
            columnSketches[i] = schema.getFields().get(i).getChildren().isEmpty() ? new KeySketch(KeySketch.COLUMN_LG_K) : null;
        }
    }

    long bytes() {
        return bytes;
    }

    /** Counts {@code batch}, whose {@link dev.quiver.engine.batch.Batches#sizeInBytes} the caller measured as {@code batchBytes}. */
    void add(VectorSchemaRoot batch, long batchBytes, BufferAllocator allocator) {
        int rowCount = batch.getRowCount();
        rows += rowCount;
        bytes += batchBytes;
        batches++;
        for (int i = 0; i < nulls.length; i++) {
            FieldVector column = batch.getVector(i);
            nulls[i] += column.getNullCount();
            if (columnSketches[i] != null) {
                try {
                    columnSketches[i].addHashes(nonNullHashes(column, rowCount));
                } catch (IllegalArgumentException unhashable) {
                    // a type the partition hash does not cover (lists, structs): its distinct fraction stays unknown
                    columnSketches[i] = null;
                }
            }
        }
        if (!keys.isEmpty()) {
            addKeys(batch, allocator);
        }
    }

    private static long[] nonNullHashes(FieldVector column, int rowCount) {
        long[] hashes = PartitionHash.hashRows(List.of(column), rowCount);
        if (column.getNullCount() == 0) {
            return hashes;
        }
        long[] nonNull = new long[rowCount - column.getNullCount()];
        int next = 0;
        for (int row = 0; row < rowCount && next < nonNull.length; row++) {
            if (!column.isNull(row)) {
                nonNull[next++] = hashes[row];
            }
        }
        return nonNull;
    }

    private void addKeys(VectorSchemaRoot batch, BufferAllocator allocator) {
        List<FieldVector> keyColumns = new ArrayList<>(keys.size());
        try {
            for (PhysicalExpr key : keys) {
                keyColumns.add(key.evaluate(batch, allocator));
            }
            int rowCount = batch.getRowCount();
            long[] hashes = PartitionHash.hashRows(keyColumns, rowCount);
            int middle = rowCount / 2;
            addPiece(Arrays.copyOfRange(hashes, 0, middle));
            addPiece(Arrays.copyOfRange(hashes, middle, rowCount));
        } finally {
            keyColumns.forEach(FieldVector::close);
        }
    }

    private void addPiece(long[] hashes) {
        KeySketch sketch = new KeySketch();
        sketch.addHashes(hashes);
        pieces.add(new Piece(sketch, hashes.length));
        if (pieces.size() > MAX_PIECES) {
            List<Piece> merged = new ArrayList<>();
            for (int i = 0; i < pieces.size(); i += 2) {
                if (i + 1 < pieces.size()) {
                    merged.add(new Piece(KeySketch.merge(List.of(pieces.get(i).sketch(), pieces.get(i + 1).sketch())),
                            pieces.get(i).rows() + pieces.get(i + 1).rows()));
                } else {
                    merged.add(pieces.get(i));
                }
            }
            pieces.clear();
            pieces.addAll(merged);
        }
    }

    /** The pieces that make the first half of the rows (the last one may reach past it). */
    private Piece firstHalf() {
        List<KeySketch> sketches = new ArrayList<>();
        long covered = 0;
        for (Piece piece : pieces) {
            if (covered * 2 >= rows) {
                break;
            }
            sketches.add(piece.sketch());
            covered += piece.rows();
        }
        return new Piece(KeySketch.merge(sketches), covered);
    }

    PartitionSample toSample(int partition, boolean endOfStream, boolean blocked, DriverState driverState, long pendingRows, long driverRowsPulled,
            long driverRowsExpected) {
        List<ColumnSample> columns = new ArrayList<>(nulls.length);
        for (int i = 0; i < nulls.length; i++) {
            long nonNull = rows - nulls[i];
            double nullFraction = rows == 0 ? 0 : nulls[i] / (double) rows;
            double distinctFraction = columnSketches[i] == null ? -1
                    : nonNull == 0 ? 0 : Math.min(1.0, columnSketches[i].estimate() / nonNull);
            columns.add(new ColumnSample(schema.getFields().get(i).getName(), nullFraction, distinctFraction));
        }
        if (keys.isEmpty()) {
            return new PartitionSample(partition, rows, bytes, batches, endOfStream, blocked, driverState, pendingRows, driverRowsPulled,
                    driverRowsExpected, columns, "", 0, "");
        }
        KeySketch keySketch = KeySketch.merge(pieces.stream().map(Piece::sketch).toList());
        Piece half = firstHalf();
        return new PartitionSample(partition, rows, bytes, batches, endOfStream, blocked, driverState, pendingRows, driverRowsPulled,
                driverRowsExpected, columns, keySketch.encode(), half.rows(), half.sketch().encode());
    }
}
