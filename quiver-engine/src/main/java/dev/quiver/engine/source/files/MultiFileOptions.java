package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

/**
 * How a table made of several files reads them, whatever their format (DuckDB's names):
 *
 * @param hivePartitioning whether {@code key=value} directories become columns ({@link HivePartitions})
 * @param hiveTypesAutocast whether partition values get DATE, BIGINT or TIMESTAMP types when they all
 *     read as one (otherwise every partition column is VARCHAR)
 * @param unionByName whether files may have different columns: the table has every column of any
 *     file (in the order first seen), NULL where a file lacks it, of the type that holds the types
 *     of all files (INTEGER and BIGINT make BIGINT); without it every file must have the first
 *     file's columns
 */
public record MultiFileOptions(HivePartitions.Mode hivePartitioning, boolean hiveTypesAutocast, boolean unionByName) {
    public static final MultiFileOptions DEFAULTS = new MultiFileOptions(HivePartitions.Mode.AUTO, true, false);

    public MultiFileOptions {
        requireNonNull(hivePartitioning, "hivePartitioning is null");
    }

    /** These options read through {@code options} (the keys {@code hive_partitioning}, {@code hive_types_autocast}, {@code union_by_name}). */
    public static MultiFileOptions from(FileOptions options) {
        HivePartitions.Mode hive = options.bool("hive_partitioning")
                .map(on -> on ? HivePartitions.Mode.ON : HivePartitions.Mode.OFF)
                .orElse(HivePartitions.Mode.AUTO);
        return new MultiFileOptions(hive, options.bool("hive_types_autocast").orElse(true), options.bool("union_by_name").orElse(false));
    }
}
