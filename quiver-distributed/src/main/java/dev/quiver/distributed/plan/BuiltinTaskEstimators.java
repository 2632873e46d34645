package dev.quiver.distributed.plan;

import java.util.List;

/** The estimators of the built-in sources. */
final class BuiltinTaskEstimators {
    private BuiltinTaskEstimators() {}

    static List<TaskEstimator<?>> all() {
        return List.of(new TpchTaskEstimator(), new ParquetTaskEstimator(), new ArrowTaskEstimator(), new CsvTaskEstimator(), new JsonTaskEstimator(),
                new MemoryTaskEstimator(), new MemoryTableTaskEstimator(), new ValuesTaskEstimator());
    }
}
