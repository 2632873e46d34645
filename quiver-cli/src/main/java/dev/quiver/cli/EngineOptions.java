package dev.quiver.cli;

import dev.quiver.distributed.coordinator.discovery.WorkerResolvers;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.session.QuerySession;
import dev.quiver.session.SessionSettings;
import dev.quiver.session.spi.QuiverPlugins;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** The session options that the commands running queries share. */
final class EngineOptions {
    /** The default pool limit; the launcher sizes the JVM above it (heap and direct memory 4 GiB). */
    static final String DEFAULT_MEMORY_LIMIT = "3GiB";
    /** The default pool limit of each local worker; the launcher adds it per {@code --local-workers} to the JVM's size. */
    static final String DEFAULT_WORKER_MEMORY_LIMIT = "1GiB";

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--memory-limit", paramLabel = "SIZE", defaultValue = DEFAULT_MEMORY_LIMIT,
            converter = SizeConverter.class,
            description = "Memory pool limit, e.g. 512MiB or 2GiB (default: ${DEFAULT-VALUE}). "
                    + "A query needing more fails with EXCEEDED_MEMORY_LIMIT.")
    private long memoryLimit;

    @Option(names = "--partitions", paramLabel = "N",
            description = "Partitions per plan stage, i.e. parallelism (default: the number of cores).")
    private Integer partitions;

    @Option(names = "--local-workers", paramLabel = "N",
            description = "Run queries distributed on N workers started in this process, each a real Flight server "
                    + "on 127.0.0.1 with its own memory pool (see --worker-memory-limit).")
    private Integer localWorkers;

    @Option(names = "--worker-memory-limit", paramLabel = "SIZE", defaultValue = DEFAULT_WORKER_MEMORY_LIMIT, converter = SizeConverter.class,
            description = "Memory pool of each local worker (default: ${DEFAULT-VALUE}).")
    private long workerMemoryLimit;

    @Option(names = "--workers", paramLabel = "WORKERS", split = ",",
            description = "Run queries distributed on running workers (started with quiver worker), comma-separated, each HOST:PORT, "
                    + "dns:NAME:PORT (every address of NAME, e.g. a Kubernetes headless service) or file:PATH (a file of HOST:PORT lines); "
                    + "asked again before every query (docs/cluster.md).")
    private List<String> workers = new ArrayList<>();

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "A session setting, as SET NAME = VALUE would (repeatable), e.g. --set distributed.max_tasks_per_stage=8.")
    private Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--catalog", paramLabel = "DIR",
            description = "Keep views, external table definitions and the tables CREATE TABLE makes (as Parquet) in DIR across runs, "
                    + "like a DuckDB database file; created if missing; one process at a time")
    private Path catalogDirectory;

    @Option(names = "--stage-handler", paramLabel = "CLASS",
            description = "A stage-event handler (dev.quiver.distributed.event.StageEventHandler) for distributed queries, by class name, "
                    + "instantiated with its public no-argument constructor (repeatable; run in the order given), e.g. "
                    + "--stage-handler dev.quiver.distributed.handler.AggregateMemorySizingHandler.")
    private List<String> stageHandlers = new ArrayList<>();

    @Option(names = "--cluster-secret-file", paramLabel = "FILE",
            description = "The cluster's shared secret (the file's text, 16 characters or more): every call to the workers carries a token "
                    + "derived from it, and workers started with it refuse calls without it.")
    private Path clusterSecretFile;

    @Option(names = "--worker-tls-trust", paramLabel = "FILE",
            description = "Connect to --workers with TLS, trusting the PEM certificate(s) in FILE (the workers', or their CA's).")
    private Path workerTlsTrust;

    long memoryLimit() {
        return memoryLimit;
    }

    int partitions() {
        if (partitions == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (partitions < 1) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--partitions': " + partitions + " (must be at least 1)");
        }
        return partitions;
    }

    /** A session over {@code catalog} with these options. */
    QuerySession newSession(Catalog catalog) {
        return newSession(catalog, SessionSettings.ExplainFormat.TEXT);
    }

    /** A session over {@code catalog} with these options, rendering plans in {@code explainFormat}. */
    QuerySession newSession(Catalog catalog, SessionSettings.ExplainFormat explainFormat) {
        if (localWorkers != null && localWorkers < 1) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--local-workers': " + localWorkers + " (must be at least 1)");
        }
        if (localWorkers != null && !workers.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Options '--local-workers' and '--workers' cannot be combined: choose one");
        }
        QuerySession.Builder builder = QuerySession.builder()
                .catalog(catalog)
                .memoryLimit(memoryLimit)
                .targetPartitions(partitions())
                .set(SessionSettings.EXPLAIN_FORMAT, explainFormat)
                .settings(settings);
        // extensions on the class path (QUIVER_CLASSPATH): tables, task estimators, codecs, handlers
        builder.plugins(QuiverPlugins.load(EngineOptions.class.getClassLoader()));
        for (String className : stageHandlers) {
            builder.stageEventHandler(StageHandlers.instantiate(spec.commandLine(), className));
        }
        if (catalogDirectory != null) {
            builder.catalogDirectory(catalogDirectory);
        }
        if (clusterSecretFile != null) {
            builder.clusterSecret(ClusterSecrets.read(clusterSecretFile));
        }
        if (workerTlsTrust != null) {
            builder.workerTlsTrust(workerTlsTrust);
        }
        if (localWorkers != null) {
            builder.localWorkers(localWorkers, workerMemoryLimit);
        } else if (!workers.isEmpty()) {
            builder.workers(WorkerResolvers.parse(workers));
        }
        return builder.build();
    }

    /** Reads {@code 3GiB}-style sizes. */
    static final class SizeConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long bytes;
            try {
                bytes = ByteSize.parseBytes(value);
            } catch (QuiverException e) {
                throw new TypeConversionException("'" + value + "' is not a size; write e.g. 512MiB or 3GiB");
            }
            if (bytes < 1) {
                throw new TypeConversionException("'" + value + "': the size must be positive");
            }
            return bytes;
        }
    }
}
