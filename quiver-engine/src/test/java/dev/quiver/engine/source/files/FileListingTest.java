package dev.quiver.engine.source.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileListingTest {
    @TempDir
    Path directory;

    @BeforeEach
    void files() throws IOException {
        for (String file : List.of("a.parquet", "b.parquet", "c.csv", "_SUCCESS", ".hidden.parquet", "x/y/deep.parquet", "x/shallow.parquet",
                "_temporary/t.parquet", "year=2024/month=01/f.parquet", "year=2024/month=12/f.parquet", "year=2023/month=12/f.parquet")) {
            Path path = directory.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, file);
        }
    }

    private List<String> list(String... locations) {
        List<String> absolute = java.util.Arrays.stream(locations).map(l -> directory + "/" + l).toList();
        return FileListing.list(Storages.LOCAL, absolute, Set.of(".parquet"), "Parquet").stream()
                .map(file -> directory.relativize(file.location().path()).toString()).toList();
    }

    @Test
    void aGlobMatchesOneSegmentAndSkipsHiddenNames() {
        assertThat(list("*.parquet")).containsExactly("a.parquet", "b.parquet");
        assertThat(list("[ab].parquet", "c.csv")).containsExactly("a.parquet", "b.parquet", "c.csv");
        assertThat(list("x/*/*.parquet")).containsExactly("x/y/deep.parquet");
    }

    @Test
    void aDoubleStarMatchesAnyNumberOfDirectories() {
        assertThat(list("x/**/*.parquet")).containsExactly("x/shallow.parquet", "x/y/deep.parquet");
        assertThat(list("**/f.parquet")).containsExactly("year=2023/month=12/f.parquet", "year=2024/month=01/f.parquet", "year=2024/month=12/f.parquet");
    }

    @Test
    void aDirectoryIsEveryDataFileBelowIt() {
        assertThat(list("x")).containsExactly("x/shallow.parquet", "x/y/deep.parquet");
        assertThat(list("")).hasSize(7).doesNotContain("_temporary/t.parquet", ".hidden.parquet", "c.csv");
    }

    @Test
    void nothingMatchingIsAnErrorNamingThePattern() {
        assertThatThrownBy(() -> list("none/*.parquet")).isInstanceOf(QuiverException.class)
                .hasMessage("No files match the pattern '" + directory + "/none/*.parquet'")
                .extracting(e -> ((QuiverException) e).errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR);
        assertThatThrownBy(() -> list("missing.parquet")).hasMessageContaining("missing.parquet does not exist");
    }

    @Test
    void hiveKeysBecomeTypedColumnsInNameOrder() {
        List<Location> files = FileListing.list(Storages.LOCAL, List.of(directory + "/year=*/*/*.parquet"), Set.of(), "Parquet").stream().map(FileEntry::location).toList();
        HivePartitions.Partitioning partitioning = HivePartitions.of(files, HivePartitions.Mode.AUTO, true);
        assertThat(partitioning.columns()).extracting(Field::getName).containsExactly("month", "year");
        // month=01 is not BIGINT's spelling of 1: VARCHAR, as DuckDB has it
        assertThat(partitioning.columns()).extracting(Field::getType).containsExactly(QuiverTypes.UTF8, QuiverTypes.INT64);
        assertThat(partitioning.valuesOf(files.get(0))).containsExactly("12", 2023L);
        assertThat(HivePartitions.of(files, HivePartitions.Mode.AUTO, false).columns()).extracting(Field::getType)
                .containsExactly(QuiverTypes.UTF8, QuiverTypes.UTF8);
    }

    @Test
    void hiveValuesAreDecodedAndTheDefaultPartitionIsNull() {
        List<Location> files = List.of(Location.of("t/d=2024-02-29/s=a%20b/f.parquet"), Location.of("t/d=" + HivePartitions.DEFAULT_PARTITION + "/s=%C3%A9/f.parquet"));
        HivePartitions.Partitioning partitioning = HivePartitions.of(files, HivePartitions.Mode.ON, true);
        assertThat(partitioning.columns()).extracting(Field::getType).containsExactly(QuiverTypes.DATE32, QuiverTypes.UTF8);
        assertThat(partitioning.valuesOf(files.get(0))).containsExactly((int) java.time.LocalDate.of(2024, 2, 29).toEpochDay(), "a b");
        assertThat(partitioning.valuesOf(files.get(1))).containsExactly(null, "é");
    }

    @Test
    void filesWithDifferentKeysAreNotPartitionedUnlessAsked() {
        List<Location> files = List.of(Location.of("t/a=1/f.parquet"), Location.of("t/b=1/f.parquet"));
        assertThat(HivePartitions.of(files, HivePartitions.Mode.AUTO, true).columns()).isEmpty();
        assertThatThrownBy(() -> HivePartitions.of(files, HivePartitions.Mode.ON, true)).hasMessageContaining("t/b=1/f.parquet has the keys [b]");
    }
}
