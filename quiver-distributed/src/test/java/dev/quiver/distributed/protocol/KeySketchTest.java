package dev.quiver.distributed.protocol;

import static dev.quiver.distributed.aqe.AqeFixtures.column;
import static dev.quiver.distributed.aqe.AqeFixtures.context;
import static dev.quiver.distributed.aqe.AqeFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.distributed.aqe.AqeFixtures;
import dev.quiver.distributed.aqe.AqeFixtures.RecordingSink;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.TestingContext;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeySketchTest {
    private final TestingContext testing = new TestingContext();

    @AfterEach
    void close() {
        testing.close();
    }

    @Test
    void int32AndInt64TuplesOfEqualValuesHashAlike() {
        try (IntVector ints = new IntVector("k", testing.allocator()); BigIntVector longs = new BigIntVector("k", testing.allocator());
                VarCharVector names = new VarCharVector("n", testing.allocator())) {
            int rows = 5000;
            ints.allocateNew(rows);
            longs.allocateNew(rows);
            names.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                ints.set(i, i % 1000);
                longs.set(i, i % 1000);
                names.setSafe(i, ("n" + i % 7).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            ints.setValueCount(rows);
            longs.setValueCount(rows);
            names.setValueCount(rows);

            KeySketch narrow = new KeySketch();
            narrow.addRows(List.of(ints, names), rows);
            KeySketch wide = new KeySketch();
            wide.addRows(List.of(longs, names), rows);
            assertThat(wide.encode()).isEqualTo(narrow.encode());
            // lcm(1000, 7) > 5000: every row is its own (k, n) pair
            assertThat(narrow.estimate()).isCloseTo(5000, within(5000 * 0.04));
            assertThat(KeySketch.merge(List.of(narrow, wide)).estimate()).isEqualTo(narrow.estimate());
        }
    }

    @Test
    void estimatesTheDistinctOrderKeysOfLineitemWithinAFewPercent() {
        // the sketches of the four partitions, merged, against the 15000 orders of SF 0.01
        ExecutionPlan lineitem = scan(new TpchCatalog(0.01), "lineitem", 4);
        RecordingSink sink = new RecordingSink();
        try (TaskContext context = context(testing, 8192, sink)) {
            AqeFixtures.run(new SamplerExec(lineitem, List.of(column(lineitem, "l_orderkey")), 1L << 30), context);
        }
        List<KeySketch> parts = sink.samples.stream().map(sample -> KeySketch.decode(sample.keySketch())).toList();
        assertThat(KeySketch.merge(parts).estimate()).isCloseTo(15000, within(15000 * 0.03));
        // partitions hold disjoint order keys: their estimates add up to the same
        assertThat(sink.samples.stream().mapToLong(PartitionSample::keyDistinct).sum()).isCloseTo(15000L, within(450L));
    }

    @Test
    void encodesSparseAndDenseSketchesLosslessly() {
        KeySketch small = new KeySketch();
        small.addHashes(new long[] {1, 2, 3, 42});
        KeySketch decoded = KeySketch.decode(small.encode());
        assertThat(decoded.estimate()).isEqualTo(small.estimate());
        assertThat(small.estimate()).isCloseTo(4, within(0.1));

        KeySketch large = new KeySketch();
        long[] hashes = new long[100_000];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = i * 0x9E3779B97F4A7C15L;
        }
        large.addHashes(hashes);
        assertThat(KeySketch.decode(large.encode()).estimate()).isEqualTo(large.estimate());
        assertThat(large.estimate()).isCloseTo(100_000, within(100_000 * 0.05));
        assertThat(new KeySketch().isEmpty()).isTrue();
        assertThat(large.isEmpty()).isFalse();
    }
}
