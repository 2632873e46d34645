package dev.quiver.distributed.config;

import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingCheck;
import dev.quiver.engine.config.SettingTypes;
import dev.quiver.engine.config.SettingsRegistry;
import dev.quiver.engine.config.SettingsRule;
import dev.quiver.engine.source.storage.StorageSettings;
import java.util.List;

/**
 * The {@code distributed.*} settings (DESIGN §4). They matter when a session has workers; a task
 * request carries them (with the engine's, {@link #TASK_REGISTRY}) to the worker that runs it.
 * Adding one is one declaration here; read it with {@code settings.get(DistributedSettings.X)}.
 */
public final class DistributedSettings {
    private static final long MIB = 1L << 20;
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    public static final Setting<Integer> MAX_TASKS_PER_STAGE = DECLARED.add(Setting.of("distributed.max_tasks_per_stage", SettingTypes.INTEGER, 0,
            SettingCheck.atLeast(0), "hard limit on a stage's task count (0: the number of workers): advisory counts are clamped to it; "
                    + "an exact count above it fails planning"));
    public static final Setting<Integer> MAX_PARTITIONS_PER_TASK = DECLARED.add(Setting.of("distributed.max_partitions_per_task", SettingTypes.INTEGER,
            8192, SettingCheck.atLeast(1), "the most hash partitions a producer task writes, `P_c × T_c` (a consumer task reads `P_c` of them): an advisory consumer "
                    + "count is clamped to `max / P_c`; an exact count whose `P_c × n` is above it fails planning with TASK_COUNT_CONFLICT"));
    public static final Setting<Long> BYTES_PER_PARTITION_FOR_SCANS = DECLARED.add(Setting.of("distributed.bytes_per_partition_for_scans", SettingTypes.SIZE,
            16 * MIB, SettingCheck.atLeast(1), "bytes of a scanned source one task partition should read; a scan wants `ceil(bytes / this / P)` tasks"));
    public static final Setting<Boolean> BROADCAST_JOINS = DECLARED.add(Setting.of("distributed.broadcast_joins", SettingTypes.BOOLEAN, true, SettingCheck.any(),
            "collect-left joins whose type allows it broadcast their build side; false plans them partitioned"));
    public static final Setting<IpcCompression> COMPRESSION = DECLARED.add(Setting.of("distributed.compression",
            SettingTypes.enumOf(IpcCompression.class), IpcCompression.LZ4, SettingCheck.any(), "codec of the data streams between workers"));
    public static final Setting<Boolean> COLLECT_METRICS = DECLARED.add(Setting.of("distributed.collect_metrics", SettingTypes.BOOLEAN, true, SettingCheck.any(),
            "whether the final plan (`QueryHandle.finalPlan()`, `EXPLAIN ANALYZE`) holds the tasks' operator metrics; with false the coordinator "
                    + "drops them (workers still send them)"));
    public static final Setting<Boolean> DYNAMIC_TASK_COUNT = DECLARED.add(Setting.of("distributed.dynamic_task_count", SettingTypes.BOOLEAN, false,
            SettingCheck.any(), "adaptive task counts (AQE): each stage is sized at run time from samples of its inputs"));
    public static final Setting<Long> DYNAMIC_BYTES_PER_PARTITION = DECLARED.add(Setting.of("distributed.dynamic_bytes_per_partition", SettingTypes.SIZE,
            16 * MIB, SettingCheck.atLeast(1), "AQE's target bytes per partition: a stage wants `ceil(ceil(cost / this) / P)` tasks"));
    public static final Setting<Long> SAMPLE_BYTES_PER_PARTITION = DECLARED.add(Setting.of("distributed.sample_bytes_per_partition", SettingTypes.SIZE, MIB,
            SettingCheck.atLeast(1), "how much AQE's sampler pulls from each producer partition before it reports"));
    public static final Setting<Long> HEARTBEAT_INTERVAL_MS = DECLARED.add(Setting.of("distributed.heartbeat_interval_ms", SettingTypes.LONG, 1000L,
            SettingCheck.atLeast(1), "how often both ends of a task's control stream send heartbeats"));
    public static final Setting<Long> HEARTBEAT_TIMEOUT_MS = DECLARED.add(Setting.of("distributed.heartbeat_timeout_ms", SettingTypes.LONG, 30_000L,
            SettingCheck.atLeast(1), "a control stream silent this long fails its task with WORKER_LOST (a hung or dead worker)"));

    public static final Setting<Long> WORKER_INFO_TIMEOUT_MS = DECLARED.add(Setting.of("distributed.worker_info_timeout_ms", SettingTypes.LONG, 30_000L,
            SettingCheck.atLeast(1), "how long the coordinator waits for each worker's answer to the info call that starts a distributed query "
                    + "(a late answer is asked for again, a refused connection retried with backoff) before it fails with WORKER_UNREACHABLE; "
                    + "raise it when workers answer slowly under load"));

    public static final Setting<UnreachableWorkers> UNREACHABLE_WORKERS = DECLARED.add(Setting.of("distributed.unreachable_workers",
            SettingTypes.enumOf(UnreachableWorkers.class), UnreachableWorkers.SKIP, SettingCheck.any(),
            "a listed worker that does not answer the info call before a query: SKIP runs the query on the others with a warning "
                    + "(events, EXPLAIN ANALYZE); FAIL fails it with WORKER_UNREACHABLE"));
    public static final Setting<RetryPolicy> RETRY_POLICY = DECLARED.add(Setting.of("distributed.retry_policy",
            SettingTypes.enumOf(RetryPolicy.class), RetryPolicy.NONE, SettingCheck.any(),
            "a query that loses a worker: NONE fails naming it; QUERY re-plans and re-runs it on the workers that answer, if no row "
                    + "has reached the client yet (docs/cluster.md)"));
    public static final Setting<Integer> QUERY_RETRY_ATTEMPTS = DECLARED.add(Setting.of("distributed.query_retry_attempts", SettingTypes.INTEGER, 2,
            SettingCheck.atLeast(0), "with retry_policy=QUERY, how many times a query that lost a worker is run again at most"));

    /** The {@code distributed.*} settings and the rules between them. */
    public static final SettingsRegistry REGISTRY = DECLARED.build(List.of(SettingsRule.below(HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS)));

    /** What a task request carries to a worker: the engine's settings, the {@code s3.*} ones (each worker reads its own splits) and these. */
    public static final SettingsRegistry TASK_REGISTRY = SettingsRegistry.concat(List.of(EngineSettings.REGISTRY, StorageSettings.REGISTRY, REGISTRY));

    private DistributedSettings() {}
}
