package dev.quiver.examples.numbers;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.spi.QuiverPlugin;
import java.util.List;

/**
 * The example plugin: table {@code numbers} (the numbers 0 .. 3,999,999 with their
 * {@code bucket = n % 1000}), its {@link NumbersEstimator} (one task per million numbers) and the
 * codec that takes its scan to workers. Found by {@code ServiceLoader} through
 * {@code META-INF/services/dev.quiver.session.spi.QuiverPlugin} when its jar is on the class path
 * of {@code quiver sql} and {@code quiver worker}; see docs/aqe.md, "Custom sources".
 */
public final class NumbersPlugin implements QuiverPlugin {
    public static final long ROWS = 4_000_000;
    public static final long BUCKETS = 1000;
    public static final long ROWS_PER_TASK = 1_000_000;

    @Override
    public String name() {
        return "numbers example";
    }

    @Override
    public List<TableSource> tables() {
        return List.of(new NumbersTable("numbers", ROWS, BUCKETS));
    }

    @Override
    public List<TaskEstimator<?>> taskEstimators() {
        return List.of(new NumbersEstimator(ROWS_PER_TASK));
    }

    @Override
    public List<PlanNodeCodec<?>> planNodeCodecs() {
        return List.of(NumbersScanExec.CODEC);
    }
}
