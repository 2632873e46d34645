package dev.quiver.cli;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.session.QuerySession;
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
        return QuerySession.builder()
                .catalog(catalog)
                .memoryLimit(memoryLimit)
                .targetPartitions(partitions())
                .build();
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
