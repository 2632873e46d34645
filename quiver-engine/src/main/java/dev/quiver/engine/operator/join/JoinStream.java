package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One output partition of a hash or nested-loop join: acquires the build side, then probes it
 * with each batch of its probe (right) input, and finally, if it is the last probe partition to
 * finish, emits the build rows its join type selects by their match marks.
 *
 * <pre>
 *   BUILD ──► FETCH_PROBE ◄──► PROBE          (PROBE: a chunk of candidate pairs per step;
 *     │            │                            at the end of a batch, unmatched probe rows)
 *     │            ▼
 *     └──────► PROBE_DONE ──► EMIT_BUILD_ROWS ──► DONE
 *   (empty build side        └───────────────────► DONE   (not last, or nothing to emit)
 *    and nothing to emit)
 * </pre>
 *
 * Output rows are gathered as (build row, probe row) index pairs and emitted with
 * {@link Take} at most {@code batchSize} at a time; the pairs of one probe batch are all
 * emitted before the next probe batch is fetched, because the indices refer to it.
 */
final class JoinStream implements BatchStream {
    private enum State { BUILD, FETCH_PROBE, PROBE, PROBE_DONE, EMIT_BUILD_ROWS, DONE }

    private final JoinType joinType;
    private final Schema outputSchema;
    private final Schema rightSchema;
    private final Optional<PhysicalExpr> filter;
    private final Schema filterSchema;
    private final boolean[] filterColumns;
    private final BuildSideHandle handle;
    private final BatchStream probeInput;
    private final Function<BuildSide, PairSource> pairSources;
    private final BufferAllocator allocator;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    private final int batchSize;

    private State state = State.BUILD;
    private boolean failed;
    private boolean closed;
    private boolean probeInputClosed;
    private BuildSide build;
    private PairSource pairs;
    private VectorSchemaRoot probeBatch;
    private final int[] candidateBuild;
    private final int[] candidateProbe;
    private int[] outBuild;
    private int[] outProbe;
    private int outCount;
    private boolean flushing;
    private boolean[] probeMatched = new boolean[0];
    private int buildCursor;

    JoinStream(JoinType joinType, Schema leftSchema, Schema rightSchema, Optional<PhysicalExpr> filter, BuildSideHandle handle,
            BatchStream probeInput, Function<BuildSide, PairSource> pairSources, TaskContext context, PartitionMetrics metrics) {
        this.joinType = requireNonNull(joinType, "joinType is null");
        this.rightSchema = requireNonNull(rightSchema, "rightSchema is null");
        this.outputSchema = JoinSchemas.outputSchema(leftSchema, rightSchema, joinType);
        this.filter = requireNonNull(filter, "filter is null");
        this.filterSchema = JoinSchemas.filterSchema(leftSchema, rightSchema);
        this.filterColumns = referencedColumns(filter, filterSchema.getFields().size());
        this.handle = requireNonNull(handle, "handle is null");
        this.probeInput = requireNonNull(probeInput, "probeInput is null");
        this.pairSources = requireNonNull(pairSources, "pairSources is null");
        this.context = requireNonNull(context, "context is null");
        this.allocator = context.allocator();
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.batchSize = context.batchSize();
        this.candidateBuild = new int[batchSize];
        this.candidateProbe = new int[batchSize];
        this.outBuild = new int[2 * batchSize];
        this.outProbe = new int[2 * batchSize];
    }

    /**
     * Which columns of the filter's input (left then right) the filter reads, found as the
     * {@link ColumnExpr}s of its tree; the others need not be gathered. If it names none, all are.
     */
    static boolean[] referencedColumns(Optional<PhysicalExpr> filter, int width) {
        boolean[] referenced = new boolean[width];
        boolean any = false;
        Deque<PhysicalExpr> pending = new ArrayDeque<>();
        filter.ifPresent(pending::push);
        while (!pending.isEmpty()) {
            PhysicalExpr expr = pending.pop();
            if (expr instanceof ColumnExpr column && column.index() < width) {
                referenced[column.index()] = true;
                any = true;
            }
            expr.children().forEach(pending::push);
        }
        if (!any) {
            Arrays.fill(referenced, true);
        }
        return referenced;
    }

    @Override
    public Schema schema() {
        return outputSchema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (closed) {
            return null;
        }
        if (failed) {
            throw new IllegalStateException("join stream already failed");
        }
        try {
            return advance();
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        }
    }

    private VectorSchemaRoot advance() {
        while (true) {
            if (outCount >= batchSize || (flushing && outCount > 0)) {
                return emitPairs();
            }
            flushing = false;
            switch (state) {
                case BUILD -> acquireBuild();
                case FETCH_PROBE -> fetchProbe();
                case PROBE -> probeStep();
                case PROBE_DONE -> finishProbing();
                case EMIT_BUILD_ROWS -> {
                    VectorSchemaRoot batch = emitBuildRows();
                    if (batch != null) {
                        return batch;
                    }
                    state = State.DONE;
                }
                case DONE -> {
                    return null;
                }
            }
        }
    }

    private void acquireBuild() {
        build = handle.acquire();
        pairs = pairSources.apply(build);
        if (build.rowCount() == 0 && joinType.emptyBuildGivesEmptyOutput()) {
            // nothing can match and no probe row is emitted unmatched: stop the probe input early
            closeProbeInput();
            state = State.PROBE_DONE;
        } else {
            state = State.FETCH_PROBE;
        }
    }

    private void fetchProbe() {
        closeProbeBatch();
        context.checkCancelled();
        VectorSchemaRoot batch = probeInput.next();
        if (batch == null) {
            state = State.PROBE_DONE;
            return;
        }
        probeBatch = batch;
        long started = System.nanoTime();
        int rows = batch.getRowCount();
        if (joinType.tracksProbeMatches()) {
            if (probeMatched.length < rows) {
                probeMatched = new boolean[rows];
            } else {
                Arrays.fill(probeMatched, 0, rows, false);
            }
        }
        pairs.start(batch);
        state = State.PROBE;
        metrics.addElapsedCompute(System.nanoTime() - started);
    }

    private void probeStep() {
        // a chunk whose pairs all fail the filter emits nothing, and a cross product has many such chunks
        context.checkCancelled();
        long started = System.nanoTime();
        if (pairs.hasMore()) {
            probeChunk();
        } else {
            endProbeBatch();
            flushing = true;
            state = State.FETCH_PROBE;
        }
        metrics.addElapsedCompute(System.nanoTime() - started);
    }

    private void probeChunk() {
        int count = pairs.fill(candidateBuild, candidateProbe, batchSize);
        if (count > 0 && filter.isPresent()) {
            count = applyFilter(filter.get(), count);
        }
        if (count == 0) {
            return;
        }
        if (joinType.emitsBuildRowsAfterProbe()) {
            build.markMatched(candidateBuild, count);
        }
        if (joinType.tracksProbeMatches()) {
            for (int i = 0; i < count; i++) {
                probeMatched[candidateProbe[i]] = true;
            }
        }
        if (joinType.emitsPairs()) {
            ensureOutCapacity(outCount + count);
            System.arraycopy(candidateBuild, 0, outBuild, outCount, count);
            System.arraycopy(candidateProbe, 0, outProbe, outCount, count);
            outCount += count;
        }
    }

    /** Adds the probe rows the join type emits by their marks: unmatched (RIGHT, FULL, RIGHT_ANTI) or matched (RIGHT_SEMI). */
    private void endProbeBatch() {
        pairs.finishBatch();
        if (!joinType.tracksProbeMatches()) {
            return;
        }
        int rows = probeBatch.getRowCount();
        boolean wanted = joinType == JoinType.RIGHT_SEMI;
        ensureOutCapacity(outCount + rows);
        for (int row = 0; row < rows; row++) {
            if (probeMatched[row] == wanted) {
                outBuild[outCount] = -1;
                outProbe[outCount] = row;
                outCount++;
            }
        }
    }

    private void finishProbing() {
        closeProbeBatch();
        closeProbeInput();
        if (pairs != null) {
            pairs.close();
        }
        boolean last = handle.finishProbe();
        buildCursor = 0;
        state = last && joinType.emitsBuildRowsAfterProbe() ? State.EMIT_BUILD_ROWS : State.DONE;
    }

    /** Keeps the candidate pairs for which the residual filter is TRUE (not FALSE, not NULL). */
    private int applyFilter(PhysicalExpr predicate, int count) {
        VectorSchemaRoot buildBatch = build.batch();
        int leftWidth = buildBatch.getFieldVectors().size();
        List<Field> fields = filterSchema.getFields();
        List<FieldVector> columns = new ArrayList<>(fields.size());
        try {
            for (int c = 0; c < fields.size(); c++) {
                boolean left = c < leftWidth;
                if (!filterColumns[c]) {
                    columns.add(Take.nulls(fields.get(c), count, allocator));
                } else if (left) {
                    columns.add(Take.take(buildBatch.getVector(c), candidateBuild, count, allocator));
                } else {
                    columns.add(Take.take(probeBatch.getVector(c - leftWidth), candidateProbe, count, allocator));
                }
            }
        } catch (RuntimeException | Error e) {
            columns.forEach(FieldVector::close);
            throw e;
        }
        try (VectorSchemaRoot input = new VectorSchemaRoot(fields, columns, count);
                FieldVector result = predicate.evaluate(input, allocator)) {
            if (!(result instanceof BitVector)) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "join filter " + predicate.display() + " produced "
                        + result.getField().getType() + ", not BOOLEAN");
            }
            ArrowBuf validity = result.getValidityBuffer();
            ArrowBuf values = result.getDataBuffer();
            int kept = 0;
            for (int i = 0; i < count; i++) {
                if (BitVectorHelper.get(validity, i) == 1 && BitVectorHelper.get(values, i) == 1) {
                    candidateBuild[kept] = candidateBuild[i];
                    candidateProbe[kept] = candidateProbe[i];
                    kept++;
                }
            }
            return kept;
        }
    }

    private VectorSchemaRoot emitPairs() {
        long started = System.nanoTime();
        int count = Math.min(outCount, batchSize);
        List<FieldVector> vectors = new ArrayList<>(outputSchema.getFields().size());
        try {
            if (joinType.outputsLeft()) {
                for (FieldVector vector : build.batch().getFieldVectors()) {
                    vectors.add(Take.take(vector, outBuild, count, allocator));
                }
            }
            if (joinType.outputsRight()) {
                for (FieldVector vector : probeBatch.getFieldVectors()) {
                    vectors.add(Take.take(vector, outProbe, count, allocator));
                }
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        int remaining = outCount - count;
        System.arraycopy(outBuild, count, outBuild, 0, remaining);
        System.arraycopy(outProbe, count, outProbe, 0, remaining);
        outCount = remaining;
        metrics.addElapsedCompute(System.nanoTime() - started);
        return new VectorSchemaRoot(outputSchema.getFields(), vectors, count);
    }

    /** The next batch of build rows selected by their marks: matched for LEFT_SEMI, unmatched otherwise; null at the end. */
    private VectorSchemaRoot emitBuildRows() {
        long started = System.nanoTime();
        boolean wanted = joinType == JoinType.LEFT_SEMI;
        int rows = build.rowCount();
        int count = 0;
        while (buildCursor < rows && count < batchSize) {
            if (build.isMatched(buildCursor) == wanted) {
                outBuild[count++] = buildCursor;
            }
            buildCursor++;
        }
        if (count == 0) {
            return null;
        }
        List<FieldVector> vectors = new ArrayList<>(outputSchema.getFields().size());
        try {
            for (FieldVector vector : build.batch().getFieldVectors()) {
                vectors.add(Take.take(vector, outBuild, count, allocator));
            }
            if (joinType.outputsRight()) {
                for (Field field : rightSchema.getFields()) {
                    vectors.add(Take.nulls(field, count, allocator));
                }
            }
        } catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        metrics.addElapsedCompute(System.nanoTime() - started);
        return new VectorSchemaRoot(outputSchema.getFields(), vectors, count);
    }

    private void ensureOutCapacity(int needed) {
        if (outBuild.length < needed) {
            int capacity = Math.max(needed, outBuild.length * 2);
            outBuild = Arrays.copyOf(outBuild, capacity);
            outProbe = Arrays.copyOf(outProbe, capacity);
        }
    }

    private void closeProbeBatch() {
        if (probeBatch != null) {
            probeBatch.close();
            probeBatch = null;
        }
    }

    private void closeProbeInput() {
        if (!probeInputClosed) {
            probeInputClosed = true;
            probeInput.close();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        state = State.DONE;
        try {
            closeProbeBatch();
            if (pairs != null) {
                pairs.close();
            }
            closeProbeInput();
        } finally {
            handle.release();
        }
    }
}
