package dev.quiver.engine.source.storage;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.source.storage.s3.S3Config;
import dev.quiver.engine.source.storage.s3.S3Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Picks the {@link Storage} of a location from its scheme: a path is local, {@code s3://} is
 * {@link S3Storage} configured by the {@code s3.*} settings ({@link StorageSettings}) and the AWS
 * environment variables, resolved when an {@code s3://} location is first used (so a bad
 * {@code s3.endpoint} fails only queries that read S3).
 */
public final class Storages {
    /** Local files only: for callers that read local paths. */
    public static final Storages LOCAL = new Storages(Optional.empty(), Map.of(), Optional.empty());

    private final Optional<Settings> settings;
    private final Map<String, String> env;
    private final Optional<Executor> executor;

    private Storages(Optional<Settings> settings, Map<String, String> env, Optional<Executor> executor) {
        this.settings = settings;
        this.env = Map.copyOf(env);
        this.executor = executor;
    }

    /** The storages of a session with {@code settings}, over this process's environment variables. */
    public static Storages from(Settings settings) {
        return new Storages(Optional.of(requireNonNull(settings, "settings is null")), System.getenv(), Optional.empty());
    }

    /** {@link #from} with the given environment variables instead of the process's (for tests). */
    public static Storages from(Settings settings, Map<String, String> env) {
        return new Storages(Optional.of(requireNonNull(settings, "settings is null")), env, Optional.empty());
    }

    /**
     * The storages a scan reads its files through in one execution (a local query, or a task on a
     * worker, with the settings the task request carried): an object store fetches several ranges
     * at once on the execution's executor.
     */
    public static Storages forTask(TaskContext context) {
        Executor parallel = task -> context.executor().execute(context.taskId() + "-range-read", task);
        return new Storages(Optional.of(context.config().settings()), System.getenv(), Optional.of(parallel));
    }

    /** The storage that holds {@code location}. */
    public Storage of(Location location) {
        if (location.isLocal()) {
            return LocalStorage.INSTANCE;
        }
        String scheme = location.scheme().orElseThrow();
        if (scheme.equals("s3") && settings.isPresent()) {
            return new S3Storage(S3Config.from(settings.get(), env, profileFilesExist()), executor);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "cannot read " + location + ": Quiver reads local paths and s3:// objects"
                + (scheme.equals("s3") ? " (not here: this reader has no session settings)" : ", not " + scheme + "://"));
    }

    private boolean profileFilesExist() {
        String home = System.getProperty("user.home", "");
        String credentials = env.getOrDefault("AWS_SHARED_CREDENTIALS_FILE", home + "/.aws/credentials");
        String config = env.getOrDefault("AWS_CONFIG_FILE", home + "/.aws/config");
        return Files.isRegularFile(Path.of(credentials)) || Files.isRegularFile(Path.of(config));
    }

    @Override
    public String toString() {
        return settings.isPresent() ? "storages(local, s3)" : "storages(local)";
    }
}
