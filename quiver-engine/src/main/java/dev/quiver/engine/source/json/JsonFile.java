package dev.quiver.engine.source.json;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.Location;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One JSON Lines file: the unit a scan split is made of (files are not cut).
 *
 * @param path the file
 * @param bytes its size
 * @param partitionValues the file's values of the table's Hive partition columns (null for NULL)
 */
public record JsonFile(Location path, long bytes, List<Object> partitionValues) {
    public JsonFile {
        requireNonNull(path, "path is null");
        // values may be NULL, which List.copyOf refuses
        partitionValues = Collections.unmodifiableList(new ArrayList<>(requireNonNull(partitionValues, "partitionValues is null")));
    }
}
