package dev.quiver.engine.operator.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An exchange opens every input partition before any is read, so that the memory reservations
 * beneath are all counted when the first row flows (a spilling sort's fair share depends on it);
 * if one fails to open, the others are closed and the failure is the query's.
 */
class ExchangeOpensInputsFirstTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT64, false)));
    private static final int PARTITIONS = 4;

    static Stream<Arguments> exchanges() {
        SortKey byId = new SortKey(new ColumnExpr(0, "id", QuiverTypes.INT64, false), true, false);
        return Stream.of(
                Arguments.of("SortPreservingMergeExec", (Function<ExecutionPlan, ExecutionPlan>) input ->
                        new SortPreservingMergeExec(input, List.of(byId), OptionalLong.empty())),
                Arguments.of("CoalescePartitionsExec", (Function<ExecutionPlan, ExecutionPlan>) CoalescePartitionsExec::new),
                Arguments.of("RepartitionExec", (Function<ExecutionPlan, ExecutionPlan>) input ->
                        new CoalescePartitionsExec(new RepartitionExec(input, new Partitioning.RoundRobin(3)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void opensEveryInputPartitionBeforeReadingAny(String name, Function<ExecutionPlan, ExecutionPlan> exchange) {
        Recorder recorder = new Recorder(rows(), -1);
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(exchange.apply(recorder))).hasSize(rows().size());
        }
        List<String> events = recorder.events();
        assertThat(events.stream().filter(e -> e.startsWith("open"))).hasSize(PARTITIONS);
        assertThat(lastIndexStartingWith(events, "open")).as("events %s", events).isLessThan(firstIndexStartingWith(events, "read"));
        assertThat(events.stream().filter(e -> e.startsWith("close"))).hasSize(PARTITIONS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void aPartitionThatFailsToOpenFailsTheQueryAndClosesTheOthers(String name, Function<ExecutionPlan, ExecutionPlan> exchange) {
        Recorder recorder = new Recorder(rows(), 2);
        try (TestingContext testing = new TestingContext()) {
            assertThatThrownBy(() -> testing.rows(exchange.apply(recorder))).hasMessageContaining("partition 2 cannot be opened");
        }
        List<String> events = recorder.events();
        assertThat(events).containsExactly("open 0", "open 1", "close 0", "close 1");
    }

    private static int firstIndexStartingWith(List<String> events, String prefix) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no event " + prefix + " in " + events);
    }

    private static int lastIndexStartingWith(List<String> events, String prefix) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 400; i++) {
            rows.add(List.of(i));
        }
        return rows;
    }

    /** A scan of {@link #PARTITIONS} partitions that records when each is opened, first read and closed. */
    private static final class Recorder extends AbstractExecutionPlan {
        private final MemoryScanExec scan;
        private final int failingPartition;
        private final List<String> events = Collections.synchronizedList(new ArrayList<>());

        Recorder(List<List<Object>> rows, int failingPartition) {
            this.scan = MemoryScanExec.split(SCHEMA, rows, PARTITIONS);
            this.failingPartition = failingPartition;
        }

        List<String> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }

        @Override
        public String name() {
            return "Recorder";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public List<ExecutionPlan> children() {
            return List.of();
        }

        @Override
        public Partitioning outputPartitioning() {
            return scan.outputPartitioning();
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return this;
        }

        @Override
        public String displayLine() {
            return name();
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            if (partition == failingPartition) {
                throw new IllegalStateException("partition " + partition + " cannot be opened");
            }
            BatchStream source = scan.execute(partition, context);
            events.add("open " + partition);
            return new BatchStream() {
                private boolean read;

                @Override
                public Schema schema() {
                    return SCHEMA;
                }

                @Override
                public VectorSchemaRoot next() {
                    if (!read) {
                        read = true;
                        events.add("read " + partition);
                    }
                    return source.next();
                }

                @Override
                public void close() {
                    events.add("close " + partition);
                    source.close();
                }
            };
        }
    }
}
