package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quiver sql --catalog DIR}: what one run creates, the next one finds. */
class CatalogOptionTest {
    @TempDir
    Path dir;

    @Test
    void tablesAndViewsAreThereNextRun() {
        Path catalog = dir.resolve("my.quiver");
        Run create = CliRunner.run("sql", "--tpch", "0.01", "--catalog", catalog.toString(), "--format", "csv",
                "create table asia as select n_nationkey, n_name from nation where n_regionkey = 2; create view asia_names as select n_name from asia");
        assertThat(create.err()).isEmpty();
        assertThat(create.exitCode()).isZero();
        assertThat(catalog.resolve("catalog.json")).exists();
        Run read = CliRunner.run("sql", "--catalog", catalog.toString(), "--format", "csv", "select count(*) as n from asia_names");
        assertThat(read.err()).isEmpty();
        assertThat(read.out()).isEqualTo("n\n5\n");
    }

    @Test
    void aCatalogThatIsAFileIsAClearError() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-directory"), "x");
        Run run = CliRunner.run("sql", "--catalog", file.toString(), "select 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("Error: INVALID_CONFIGURATION: Catalog directory " + file + " is a file, not a directory\n");
    }
}
