package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.spill.SpillFile;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One output partition of a partitioned hash join that spills (grace hash join) when its build
 * side does not fit in what the pool grants it.
 *
 * <p>The build input is collected by {@link GraceBuild}. If it fits, the partition joins as
 * without spilling: one {@link JoinStream} over the built side and the probe input. Otherwise the
 * build rows have been hash-split into {@link SpillHash#FAN_OUT} spill files; the probe input is
 * then split the same way, and each pair of files with the same number is joined on its own by
 * an ordinary {@link JoinStream} — equal keys are in files of equal number, and every row is in
 * exactly one pair, so the unmatched rows each join type emits are emitted once. A build file
 * that alone still does not fit is split again, with its probe file, at the next level (other
 * hash bits), up to {@link GraceBuild#MAX_LEVEL}.
 *
 * <p>Every spill file is deleted once read and, whatever way the stream ends (end, failure,
 * cancellation, an early close by a LIMIT), by {@link #close()}.
 */
final class GraceJoinStream implements BatchStream {
    /** Build and probe spill files of one spill partition at one split level; null where no row went. */
    private record Pair(SpillFile build, SpillFile probe, int level) {}

    private final JoinType joinType;
    private final Schema outputSchema;
    private final Schema probeSchema;
    private final String probeConsumer;
    private final GraceBuild builder;
    private final SpillHash probeHash;
    private final BatchStream buildInput;
    private final BatchStream probeInput;
    private final BiFunction<BuildSideHandle, BatchStream, JoinStream> joins;
    private final TaskContext context;
    private final PartitionMetrics metrics;
    /** Pairs still to join, the next first. */
    private final Deque<Pair> pending = new ArrayDeque<>();
    private JoinStream current;
    private boolean started;
    private boolean closed;

    /**
     * @param joins an ordinary join of a build side and a probe stream, both of which it then owns
     * @param probeConsumer names the probe side's spill files, e.g. {@code HashJoinExec[probe, partition=1]}
     */
    GraceJoinStream(JoinType joinType, Schema outputSchema, Schema probeSchema, GraceBuild builder, SpillHash probeHash,
            BatchStream buildInput, BatchStream probeInput, BiFunction<BuildSideHandle, BatchStream, JoinStream> joins,
            String probeConsumer, TaskContext context, PartitionMetrics metrics) {
        this.joinType = requireNonNull(joinType, "joinType is null");
        this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
        this.probeSchema = requireNonNull(probeSchema, "probeSchema is null");
        this.builder = requireNonNull(builder, "builder is null");
        this.probeHash = requireNonNull(probeHash, "probeHash is null");
        this.buildInput = requireNonNull(buildInput, "buildInput is null");
        this.probeInput = requireNonNull(probeInput, "probeInput is null");
        this.joins = requireNonNull(joins, "joins is null");
        this.probeConsumer = requireNonNull(probeConsumer, "probeConsumer is null");
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public Schema schema() {
        return outputSchema;
    }

    @Override
    public VectorSchemaRoot next() {
        while (!closed) {
            if (current != null) {
                VectorSchemaRoot batch = current.next();
                if (batch != null) {
                    return batch;
                }
                JoinStream finished = current;
                current = null;
                finished.close();
            } else if (!started) {
                started = true;
                startFromInputs();
            } else if (!pending.isEmpty()) {
                startPair(pending.pollFirst());
            } else {
                close();
            }
        }
        return null;
    }

    /** Joins the inputs in memory if the build side fits, or splits both into spill files. */
    private void startFromInputs() {
        GraceBuild.Outcome outcome = builder.buildOrSplit(buildInput, 0);
        if (outcome.build() != null) {
            current = join(outcome.build(), probeInput);
            return;
        }
        enqueue(outcome.files(), probeInput, 0);
    }

    /** Joins one pair of files if its build file fits, or splits both at the next level. */
    private void startPair(Pair pair) {
        if (skippable(pair)) {
            delete(pair);
            return;
        }
        BatchStream buildRows;
        try {
            buildRows = pair.build() == null ? BatchStream.empty(builder.schema()) : pair.build().open(context.allocator());
        } catch (RuntimeException | Error e) {
            delete(pair);
            throw e;
        }
        GraceBuild.Outcome outcome;
        try {
            outcome = builder.buildOrSplit(buildRows, pair.level() + 1);
        } catch (RuntimeException | Error e) {
            deleteProbe(pair);
            throw e;
        }
        BatchStream probeRows;
        try {
            probeRows = pair.probe() == null ? BatchStream.empty(probeSchema) : pair.probe().open(context.allocator());
        } catch (RuntimeException | Error e) {
            if (outcome.build() != null) {
                outcome.build().close();
            } else {
                deleteAll(outcome.files());
            }
            deleteProbe(pair);
            throw e;
        }
        if (outcome.build() != null) {
            current = join(outcome.build(), probeRows);
        } else {
            enqueue(outcome.files(), probeRows, pair.level() + 1);
        }
    }

    /**
     * A pair that cannot add to the output: no build rows and a join type for which an empty build
     * side gives nothing, or no probe rows and one that emits nothing but matches and probe rows.
     */
    private boolean skippable(Pair pair) {
        if (pair.build() == null && pair.probe() == null) {
            return true;
        }
        if (pair.build() == null && joinType.emptyBuildGivesEmptyOutput()) {
            return true;
        }
        return pair.probe() == null && !joinType.emitsBuildRowsAfterProbe();
    }

    /** Splits {@code probeRows} (which it drains and closes) at {@code level} and queues its files with {@code buildFiles}, first. */
    private void enqueue(List<SpillFile> buildFiles, BatchStream probeRows, int level) {
        List<SpillFile> probeFiles;
        try {
            probeFiles = splitProbe(buildFiles, probeRows, level);
        } catch (RuntimeException | Error e) {
            deleteAll(buildFiles);
            throw e;
        }
        List<Pair> pairs = new ArrayList<>(SpillHash.FAN_OUT);
        for (int p = 0; p < SpillHash.FAN_OUT; p++) {
            pairs.add(new Pair(buildFiles.get(p), probeFiles.get(p), level));
        }
        for (int p = pairs.size() - 1; p >= 0; p--) {
            pending.addFirst(pairs.get(p));
        }
    }

    private List<SpillFile> splitProbe(List<SpillFile> buildFiles, BatchStream probeRows, int level) {
        boolean[] dropped = new boolean[SpillHash.FAN_OUT];
        for (int p = 0; p < dropped.length; p++) {
            // with no build rows there, these probe rows can only be emitted unmatched
            dropped[p] = buildFiles.get(p) == null && joinType.emptyBuildGivesEmptyOutput();
        }
        try (probeRows; SpillPartitions partitions = new SpillPartitions(probeConsumer, probeSchema, level, probeHash, dropped, context, metrics)) {
            VectorSchemaRoot batch;
            while ((batch = probeRows.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    partitions.add(owned);
                }
            }
            return partitions.finish();
        }
    }

    private JoinStream join(BuildSide build, BatchStream probeRows) {
        return joins.apply(new PartitionBuild(() -> build, () -> {}, metrics), probeRows);
    }

    private static void delete(Pair pair) {
        try {
            if (pair.build() != null) {
                pair.build().delete();
            }
        } finally {
            deleteProbe(pair);
        }
    }

    private static void deleteProbe(Pair pair) {
        if (pair.probe() != null) {
            pair.probe().delete();
        }
    }

    private static void deleteAll(List<SpillFile> files) {
        files.stream().filter(f -> f != null).forEach(SpillFile::delete);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (current != null) {
                current.close();
                current = null;
            }
        } finally {
            try {
                while (!pending.isEmpty()) {
                    delete(pending.pollFirst());
                }
            } finally {
                closeInputs();
            }
        }
    }

    private void closeInputs() {
        try {
            buildInput.close();
        } finally {
            probeInput.close();
        }
    }
}
