package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.BatchFileWriter;
import dev.quiver.engine.source.files.FileWriters;
import dev.quiver.engine.source.files.HivePartitionedWriter;
import dev.quiver.engine.source.files.StagedOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The sink of {@code COPY ... TO 'path'}: one file, or with {@code PARTITION_BY} a Hive-style
 * directory, written under a staging name and moved into place by the commit ({@link StagedOutput}),
 * so a failed or cancelled COPY leaves nothing behind.
 */
final class FileCopySink {
    private FileCopySink() {}

    /** Fails as opening would (a missing or unwritable directory, an unknown PARTITION_BY column), writing nothing. */
    static void check(Path target, Schema schema, CopyOptions options) {
        if (options.partitionBy().isEmpty()) {
            StagedOutput.checkFile(target);
        } else {
            partitionColumns(schema, options.partitionBy());
            StagedOutput.checkDirectory(target, options.overwrite());
        }
    }

    /** Opens the staging output; the writer's buffers come from {@code allocator}. */
    static WriteSink open(Path target, Schema schema, CopyOptions options, BufferAllocator allocator) {
        requireNonNull(allocator, "allocator is null");
        boolean partitioned = !options.partitionBy().isEmpty();
        List<Integer> partitions = partitioned ? partitionColumns(schema, options.partitionBy()) : List.of();
        StagedOutput output = partitioned ? StagedOutput.directory(target, options.overwrite()) : StagedOutput.file(target);
        try {
            BatchFileWriter writer = partitioned
                    ? new HivePartitionedWriter(output.path(), schema, partitions, options.format(), options.writeOptions(), allocator)
                    : FileWriters.create(options.format(), output.path(), schema, options.writeOptions(), allocator);
            return new StagedWriteSink(writer, output, batch -> { }, output::commit);
        } catch (RuntimeException e) {
            output.abort();
            throw e;
        }
    }

    private static List<Integer> partitionColumns(Schema schema, List<String> names) {
        List<Field> fields = schema.getFields();
        List<Integer> columns = new ArrayList<>();
        for (String name : names) {
            int found = -1;
            for (int c = 0; c < fields.size(); c++) {
                if (fields.get(c).getName().equalsIgnoreCase(name)) {
                    found = c;
                    break;
                }
            }
            if (found < 0) {
                throw new QuiverException(ErrorCode.COLUMN_NOT_FOUND, "PARTITION_BY column " + name + " is not a column of the query; its columns are "
                        + String.join(", ", fields.stream().map(Field::getName).toList()));
            }
            columns.add(found);
        }
        return columns;
    }
}
