package dev.quiver.session.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.parquet.ParquetTestData;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.storage.s3.S3TestServer;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.MemoryCatalog;
import dev.quiver.session.QuerySession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables on a real S3-compatible server ({@link S3TestServer}) read as the same files on local
 * disk read: globs, a Hive-partitioned prefix, CSV; {@code COPY TO 's3://...'} read back; and the
 * errors of bad credentials, a missing bucket or key and a truncated object, each naming the URI.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3FilesTest {
    private static final String BUCKET = "files";

    @TempDir
    static Path directory;

    private S3TestServer server;
    private QuerySession session;
    private Path local;

    @BeforeAll
    void start() throws Exception {
        server = S3TestServer.start(Files.createDirectories(directory.resolve("server")));
        server.createBucket(BUCKET);
        local = directory.resolve("local");
        TpchCatalog tpch = new TpchCatalog(0.01);
        ParquetTestData.write(tpch.table("customer").orElseThrow(), local.resolve("customer"), 2, ParquetWriteOptions.defaults().withRowGroupRows(500));
        QuerySession.Builder builder = QuerySession.builder().catalog(new MemoryCatalog()).targetPartitions(2);
        server.settings().forEach(builder::set);
        session = builder.build();
        session.executeScript("COPY (SELECT * FROM '" + local + "/customer/*.parquet') TO '" + local + "/hive' (FORMAT PARQUET, PARTITION_BY (c_mktsegment))");
        session.executeScript("COPY (SELECT * FROM '" + local + "/customer/*.parquet') TO '" + local + "/customer.csv' (FORMAT CSV)");
        server.putTree(BUCKET, "data", local);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (session != null) {
                session.close();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private List<List<Object>> rows(String sql) {
        return session.executeScript(sql).rows();
    }

    /** {@code sql} with {@code {}} replaced by the S3 prefix gives what it gives with the local directory. */
    private void sameAsLocal(String sql) {
        List<List<Object>> fromS3 = rows(sql.replace("{}", "s3://" + BUCKET + "/data"));
        assertThat(fromS3).isNotEmpty().isEqualTo(rows(sql.replace("{}", local.toString())));
    }

    @Test
    void aGlobAndAHivePartitionedPrefixReadAsLocalFiles() {
        sameAsLocal("SELECT count(*), sum(c_acctbal) FROM '{}/customer/*.parquet'");
        sameAsLocal("SELECT c_mktsegment, count(*), min(c_custkey) FROM read_parquet('{}/hive/*/*.parquet', hive_partitioning = true) "
                + "GROUP BY c_mktsegment ORDER BY c_mktsegment");
        // a filter on the partition column reads only the matching prefix's files
        sameAsLocal("SELECT count(*) FROM read_parquet('{}/hive/*/*.parquet', hive_partitioning = true) WHERE c_mktsegment = 'BUILDING'");
    }

    @Test
    void csvReadsAsLocalCsv() {
        sameAsLocal("SELECT c_nationkey, count(*), sum(c_acctbal) FROM read_csv('{}/customer.csv') GROUP BY c_nationkey ORDER BY c_nationkey");
    }

    @Test
    void copyToABucketReadsBack() {
        String expected = "SELECT c_nationkey, count(*), sum(c_acctbal) FROM '" + local + "/customer/*.parquet' GROUP BY c_nationkey ORDER BY c_nationkey";
        assertThat(rows("COPY (SELECT * FROM '" + local + "/customer/*.parquet') TO 's3://" + BUCKET + "/out/' (FORMAT PARQUET)"))
                .containsExactly(List.of(1500L));
        assertThat(rows("SELECT c_nationkey, count(*), sum(c_acctbal) FROM 's3://" + BUCKET + "/out/' GROUP BY c_nationkey ORDER BY c_nationkey"))
                .isEqualTo(rows(expected));
        rows("COPY (SELECT c_custkey, c_mktsegment FROM '" + local + "/customer/*.parquet') TO 's3://" + BUCKET + "/parted' "
                + "(FORMAT PARQUET, PARTITION_BY (c_mktsegment))");
        assertThat(rows("SELECT c_mktsegment, count(*) FROM read_parquet('s3://" + BUCKET + "/parted/*/*.parquet', hive_partitioning = true) "
                + "GROUP BY ALL ORDER BY ALL")).isEqualTo(rows("SELECT c_mktsegment, count(*) FROM '" + local + "/customer/*.parquet' GROUP BY ALL ORDER BY ALL"));
        assertThatThrownBy(() -> rows("COPY (SELECT 1 AS a, 2 AS b) TO 's3://" + BUCKET + "/parted' (FORMAT PARQUET, PARTITION_BY (a))"))
                .hasMessageContaining("s3://" + BUCKET + "/parted already holds objects");
    }

    @Test
    void aMissingKeyAMissingBucketAndATruncatedObjectAreErrorsNamingTheUri() throws Exception {
        assertError("SELECT * FROM 's3://" + BUCKET + "/data/none.parquet'", "s3://" + BUCKET + "/data/none.parquet does not exist");
        assertError("SELECT * FROM 's3://no-such-bucket/x/*.parquet'", "the bucket 'no-such-bucket' does not exist");
        Path file;
        try (var files = Files.list(local.resolve("customer"))) {
            file = files.filter(f -> f.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(file);
        server.put(BUCKET, "cut/half.parquet", Arrays.copyOf(bytes, bytes.length / 2));
        assertError("SELECT count(*) FROM 's3://" + BUCKET + "/cut/half.parquet'", "cannot read Parquet file s3://" + BUCKET + "/cut/half.parquet");
    }

    @Test
    void badCredentialsAreAnErrorNamingTheUriAndSecretsAreNeverShown() {
        QuerySession.Builder builder = QuerySession.builder().catalog(new MemoryCatalog());
        server.settings().forEach(builder::set);
        try (QuerySession other = builder.build()) {
            other.executeScript("SET s3.secret_access_key = 'wrong-secret'");
            assertThatThrownBy(() -> other.executeScript("SELECT count(*) FROM 's3://" + BUCKET + "/data/customer/*.parquet'"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR);
                        assertThat(e.getMessage()).contains("s3://" + BUCKET + "/data/customer").contains("access denied").contains("check the credentials")
                                .doesNotContain("wrong-secret");
                    });
            String shown = other.executeScript("SHOW SETTINGS").rows().toString();
            assertThat(shown).contains("s3.secret_access_key, ********").doesNotContain("wrong-secret");
            assertThat(other.executeScript("SELECT current_setting('s3.secret_access_key')").rows()).containsExactly(List.of("********"));
        }
    }

    private void assertError(String sql, String message) {
        assertThatThrownBy(() -> rows(sql)).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR);
            assertThat(e.getMessage()).contains(message);
        });
    }
}
