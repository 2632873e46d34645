package dev.quiver.engine.source.storage;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;

/**
 * Picks the {@link Storage} of a location from its scheme: a path is local.
 */
public final class Storages {
    /** Local files only. */
    public static final Storages LOCAL = new Storages();

    private Storages() {}

    /** The storages a session with {@code settings} reads and writes files through. */
    public static Storages from(Settings settings) {
        return LOCAL;
    }

    /** The storages a scan node reads its files through in one execution (a local query, or a task on a worker). */
    public static Storages forTask(TaskContext context, ExecutionPlan node) {
        return LOCAL;
    }

    /** The storage that holds {@code location}. */
    public Storage of(Location location) {
        if (location.isLocal()) {
            return LocalStorage.INSTANCE;
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "cannot read " + location + ": Quiver reads local paths"
                + " (the scheme " + location.scheme().orElseThrow() + ":// is not supported)");
    }

    @Override
    public String toString() {
        return "storages";
    }
}
