package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.source.storage.s3.S3TestServer;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dictionary sizes read from the dictionary page headers, per row group and column, against
 * the distinct values each row group was written with; and over S3, the same sizes with one ranged
 * GET per group of neighbouring headers instead of one per header.
 */
class ParquetDictionariesTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("small", QuiverTypes.INT32, false),
            QuiverTypes.field("tag", QuiverTypes.UTF8, true),
            QuiverTypes.field("wide", QuiverTypes.INT64, false)));
    private static final int ROW_GROUPS = 4;
    private static final int ROW_GROUP_ROWS = 20_000;
    private static final String BUCKET = "dictionaries";

    @TempDir
    static Path directory;
    private static Path file;
    private static List<Set<Object>> smallValues;
    private static List<Set<Object>> tagValues;
    private static S3TestServer server;

    @BeforeAll
    static void write() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        smallValues = new ArrayList<>();
        tagValues = new ArrayList<>();
        for (int g = 0; g < ROW_GROUPS; g++) {
            Set<Object> small = new HashSet<>();
            Set<Object> tags = new HashSet<>();
            for (int r = 0; r < ROW_GROUP_ROWS; r++) {
                int value = r % (g + 2);
                String tag = r % 5 == 0 ? null : "t" + (r % (3 * g + 3));
                small.add(value);
                if (tag != null) {
                    tags.add(tag);
                }
                // unique, spread-out longs: the writer drops their dictionary, and their chunks lie between the row groups' headers
                rows.add(Arrays.asList(value, tag, (long) (g * ROW_GROUP_ROWS + r) * 2_654_435_761L));
            }
            smallValues.add(small);
            tagValues.add(tags);
        }
        file = directory.resolve("d.parquet");
        try (TestingContext testing = new TestingContext();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
            ParquetFiles.write(SCHEMA, List.of(batch).iterator(), file, ParquetWriteOptions.defaults().withRowGroupRows(ROW_GROUP_ROWS));
        }
        server = S3TestServer.start(directory.resolve("s3"));
        server.createBucket(BUCKET);
        server.put(BUCKET, "d.parquet", file);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void eachRowGroupsDictionarySizeIsItsDistinctValueCount() {
        ParquetFooter footer = ParquetFooter.read(Storages.LOCAL.of(Location.of(file.toString())), local());
        assertThat(footer.blocks()).hasSize(ROW_GROUPS);
        for (int g = 0; g < ROW_GROUPS; g++) {
            Estimate[] sizes = footer.dictionaries().get(g);
            assertThat(sizes[0]).as("small, row group %d", g).isEqualTo(Estimate.exact(smallValues.get(g).size()));
            assertThat(sizes[1]).as("tag, row group %d", g).isEqualTo(Estimate.exact(tagValues.get(g).size()));
            assertThat(sizes[2].isExact()).as("wide, row group %d: the writer gave up its dictionary", g).isFalse();
        }
    }

    @Test
    void overS3TheSizesAreTheSameAndNeighbouringHeadersShareAGet() {
        ParquetFooter footer = ParquetFooter.read(Storages.LOCAL.of(Location.of(file.toString())), local());
        Storage s3 = Storages.from(server.storageSettings(), Map.of()).of(Location.of("s3://" + BUCKET + "/"));
        FileEntry remote = FileEntry.file(Location.of("s3://" + BUCKET + "/d.parquet"), footer.fileSize());
        int before = server.gets(BUCKET, "d.parquet").size();
        List<Estimate[]> sizes = ParquetDictionaries.sizes(s3, remote, footer.blocks(), footer.columns());
        int gets = server.gets(BUCKET, "d.parquet").size() - before;
        for (int g = 0; g < ROW_GROUPS; g++) {
            assertThat(sizes.get(g)).as("row group %d", g).containsExactly(footer.dictionaries().get(g));
        }
        // two headers per row group (small, tag), the wide chunk between one row group's and the next's
        assertThat(gets).as("ranged GETs for %d headers", 2 * ROW_GROUPS).isEqualTo(ROW_GROUPS);
    }

    private static FileEntry local() {
        try {
            return FileEntry.file(Location.of(file.toString()), Files.size(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
