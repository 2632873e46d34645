package dev.quiver.distributed.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Custom nodes and expressions through the codec SPI, and the errors of missing or clashing codecs. */
class PlanCodecSpiTest {
    private static final Schema NUMBERS = new Schema(List.of(QuiverTypes.field("n", QuiverTypes.INT64, false)));
    private static final ColumnExpr N = new ColumnExpr(0, "n", QuiverTypes.INT64, false);

    /** A custom node: passes through the first {@code partitions} partitions of its input. */
    static final class FirstPartitionsExec extends AbstractExecutionPlan {
        private final ExecutionPlan input;
        private final int partitions;

        FirstPartitionsExec(ExecutionPlan input, int partitions) {
            this.input = input;
            this.partitions = partitions;
        }

        @Override
        public String name() {
            return "FirstPartitionsExec";
        }

        @Override
        public Schema schema() {
            return input.schema();
        }

        @Override
        public List<ExecutionPlan> children() {
            return List.of(input);
        }

        @Override
        public Partitioning outputPartitioning() {
            return new Partitioning.Unknown(partitions);
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return new FirstPartitionsExec(children.get(0), partitions);
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            checkPartition(partition);
            return input.execute(partition, context);
        }

        @Override
        public String displayLine() {
            return "FirstPartitionsExec: partitions=" + partitions;
        }
    }

    /** A custom expression: {@code n * factor} over a BIGINT column. */
    record TimesExpr(PhysicalExpr input, long factor) implements PhysicalExpr {
        @Override
        public ArrowType type() {
            return QuiverTypes.INT64;
        }

        @Override
        public boolean nullable() {
            return input.nullable();
        }

        @Override
        public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
            try (BigIntVector in = (BigIntVector) input.evaluate(batch, allocator)) {
                BigIntVector out = new BigIntVector("times", allocator);
                out.allocateNew(batch.getRowCount());
                for (int i = 0; i < batch.getRowCount(); i++) {
                    if (in.isNull(i)) {
                        out.setNull(i);
                    } else {
                        out.set(i, in.get(i) * factor);
                    }
                }
                out.setValueCount(batch.getRowCount());
                return out;
            }
        }

        @Override
        public List<PhysicalExpr> children() {
            return List.of(input);
        }

        @Override
        public String display() {
            return input.display() + " times " + factor;
        }
    }

    private static final PlanNodeCodec<FirstPartitionsExec> FIRST_PARTITIONS = PlanNodeCodec.of("test.FirstPartitions", FirstPartitionsExec.class,
            (node, out, c) -> out.put("partitions", node.partitions),
            (in, children, c) -> new FirstPartitionsExec(children.get(0), c.requiredInt(in, "partitions")));

    private static final ExprCodec<TimesExpr> TIMES = ExprCodec.of("test.times", TimesExpr.class,
            (expr, out, c) -> {
                out.set("input", c.expr(expr.input()));
                out.put("factor", expr.factor());
            },
            (in, c) -> new TimesExpr(c.expr(c.required(in, "input")), c.requiredLong(in, "factor")));

    private static MemoryScanExec numbers() {
        return new MemoryScanExec(NUMBERS, List.of(List.of(List.of(1L), List.of(2L)), List.of(List.of(3L)), List.of(List.of(4L))));
    }

    @Test
    void customNodeAndExpressionRoundTripWithTheirCodecs() {
        PlanCodec codec = PlanCodec.builder().nodeCodec(FIRST_PARTITIONS).exprCodec(TIMES).build();
        ExecutionPlan plan = new ProjectionExec(List.of(new TimesExpr(N, 10)), List.of("tenfold"), new FirstPartitionsExec(numbers(), 2));
        byte[] bytes = codec.encode(plan);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"test.FirstPartitions\"", "\"test.times\"");
        ExecutionPlan decoded = codec.decode(bytes);
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(plan))
                .contains("FirstPartitionsExec: partitions=2", "n@0 times 10");
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(decoded)).containsExactlyInAnyOrder(List.of(10L), List.of(20L), List.of(30L));
            assertThat(testing.rows(plan)).containsExactlyInAnyOrderElementsOf(testing.rows(decoded));
        }
    }

    @Test
    void nodeWithoutCodecFailsNamingItsClass() {
        ExecutionPlan plan = new FilterExec(new ColumnExpr(0, "n", QuiverTypes.BOOLEAN, false), new FirstPartitionsExec(numbers(), 1));
        assertThatThrownBy(() -> PlanCodec.create().encode(plan))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("no codec for " + FirstPartitionsExec.class.getName());
    }

    @Test
    void expressionWithoutCodecFailsNamingItsClass() {
        ExecutionPlan plan = new ProjectionExec(List.of(new TimesExpr(N, 2)), List.of("x"), numbers());
        assertThatThrownBy(() -> PlanCodec.builder().nodeCodec(FIRST_PARTITIONS).build().encode(plan))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("no codec for " + TimesExpr.class.getName());
    }

    @Test
    void decodingAnUnknownTypeNameFailsNamingIt() {
        PlanCodec withCustom = PlanCodec.builder().nodeCodec(FIRST_PARTITIONS).build();
        byte[] bytes = withCustom.encode(new FirstPartitionsExec(numbers(), 1));
        assertThatThrownBy(() -> PlanCodec.create().decode(bytes))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("no codec for plan node type 'test.FirstPartitions'");
    }

    @Test
    void duplicateCodecNamesAndClassesFail() {
        assertThatThrownBy(() -> PlanCodec.builder().nodeCodec(FIRST_PARTITIONS).nodeCodec(FIRST_PARTITIONS))
                .isInstanceOf(QuiverException.class).hasMessageContaining("plan node codec named 'test.FirstPartitions' is already registered");
        PlanNodeCodec<FirstPartitionsExec> builtinName = PlanNodeCodec.of("FilterExec", FirstPartitionsExec.class,
                FIRST_PARTITIONS::encode, FIRST_PARTITIONS::decode);
        assertThatThrownBy(() -> PlanCodec.builder().nodeCodec(builtinName))
                .isInstanceOf(QuiverException.class).hasMessageContaining("named 'FilterExec' is already registered (for " + FilterExec.class.getName());
        PlanNodeCodec<FilterExec> builtinClass = PlanNodeCodec.of("my.Filter", FilterExec.class, (n, out, c) -> { },
                (in, children, c) -> null);
        assertThatThrownBy(() -> PlanCodec.builder().nodeCodec(builtinClass))
                .isInstanceOf(QuiverException.class).hasMessageContaining("plan node codec for " + FilterExec.class.getName() + " is already registered");
        ExprCodec<TimesExpr> clash = ExprCodec.of("column", TimesExpr.class, TIMES::encode, TIMES::decode);
        assertThatThrownBy(() -> PlanCodec.builder().exprCodec(clash))
                .isInstanceOf(QuiverException.class).hasMessageContaining("expression codec named 'column' is already registered");
    }

    @Test
    void corruptOrForeignInputFailsClearly() {
        PlanCodec codec = PlanCodec.create();
        assertThatThrownBy(() -> codec.decode("{not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(QuiverException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> codec.decode("{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(QuiverException.class).hasMessageContaining("not a serialized Quiver plan");
        ObjectNode tree = codec.toTree(numbers());
        tree.put("version", 99);
        assertThatThrownBy(() -> codec.fromTree(tree)).isInstanceOf(QuiverException.class).hasMessageContaining("format version 99");
        ObjectNode missing = codec.toTree(new FilterExec(new ColumnExpr(0, "n", QuiverTypes.BOOLEAN, false), numbers()));
        ((ObjectNode) missing.get("plan")).remove("predicate");
        assertThatThrownBy(() -> codec.fromTree(missing))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR))
                .hasMessageContaining("lacks field 'predicate'");
        JsonNode plan = codec.toTree(numbers());
        assertThat(codec.fromTree(plan).displayLine()).isEqualTo(numbers().displayLine());
    }
}
