package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * One record batch of an Arrow IPC file: the unit a scan split is made of.
 *
 * @param file the Arrow IPC file
 * @param index the batch's position in the file's footer
 * @param rowCount exact number of rows, from the batch's metadata
 * @param bodyBytes bytes of the batch's body (its buffers), about its size in memory
 */
record ArrowBlockSplit(Path file, int index, long rowCount, long bodyBytes) {
    ArrowBlockSplit {
        requireNonNull(file, "file is null");
    }

    @Override
    public String toString() {
        return file.getFileName() + "#" + index;
    }
}
