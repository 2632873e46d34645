package dev.quiver.session.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.parquet.ParquetTestData;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.storage.s3.S3TestServer;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.MemoryCatalog;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.01 over Parquet files in a bucket of a real
 * S3-compatible server ({@link S3TestServer}), single-node and on 4 workers (each reads its own
 * splits from the server, with the {@code s3.*} settings its task request carries), against the
 * shipped answer files; and what a scan fetches.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3TpchAnswerFileTest {
    static final String BUCKET = "tpch";

    @TempDir
    static Path directory;

    private S3TestServer server;
    private QuerySession single;
    private QuerySession distributed;
    private Path local;

    @BeforeAll
    void uploadTablesAndStartSessions() throws Exception {
        server = S3TestServer.start(Files.createDirectories(directory.resolve("server")));
        server.createBucket(BUCKET);
        local = directory.resolve("tpch");
        TpchCatalog generator = new TpchCatalog(0.01);
        for (String name : generator.tableNames()) {
            // small row groups, so that scans really split tables and read many row groups
            ParquetTestData.write(generator.table(name).orElseThrow(), local.resolve(name), 2, ParquetWriteOptions.defaults().withRowGroupRows(10_000));
        }
        server.putTree(BUCKET, "sf001", local);
        single = session(QuerySession.builder().catalog(new MemoryCatalog()).targetPartitions(2));
        distributed = session(QuerySession.builder().catalog(new MemoryCatalog()).targetPartitions(2).localWorkers(4));
        for (QuerySession session : List.of(single, distributed)) {
            for (String name : generator.tableNames()) {
                session.execute("CREATE EXTERNAL TABLE " + name + " STORED AS PARQUET LOCATION 's3://" + BUCKET + "/sf001/" + name + "'").close();
            }
        }
    }

    private QuerySession session(QuerySession.Builder builder) {
        server.settings().forEach(builder::set);
        return builder.build();
    }

    @AfterAll
    void close() throws Exception {
        // a session's close fails if any query leaked Arrow memory or reservations
        try {
            if (single != null) {
                single.close();
            }
            if (distributed != null) {
                distributed.close();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void singleNodeMatchesAnswerFile(int query) {
        check(single, query, "single-node");
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void fourWorkersMatchAnswerFile(int query) {
        check(distributed, query, "4 workers");
    }

    private static void check(QuerySession session, int query, String mode) {
        AnswerFile answer = AnswerFile.parse(TpchQueries.answer(query));
        QueryResult result = session.executeScript(TpchQueries.query(query));
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW revenue").close();
        }
        ResultComparator.assertMatches("q" + query + " over Parquet on S3, " + mode, result.schema(), result.rows(), answer.rows());
    }

    @Test
    void aScanOfOneColumnFetchesOnlyThatColumnsChunksAndTheFooter() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(local.resolve("lineitem"))) {
            files = list.filter(file -> file.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
        long fileBytes = 0;
        for (Path file : files) {
            fileBytes += Files.size(file);
        }
        int before = server.requests().size();
        QueryResult result = single.executeScript("SELECT sum(l_quantity) FROM lineitem");
        assertThat(result.rows()).hasSize(1);
        List<S3TestServer.Request> gets = server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> r.method().equals("GET") && r.path().startsWith("/" + BUCKET + "/sf001/lineitem/")).toList();
        assertThat(gets).isNotEmpty().allSatisfy(get -> assertThat(get.rangeStart()).as("every GET is ranged").isGreaterThanOrEqualTo(0));
        long fetched = gets.stream().mapToLong(S3TestServer.Request::rangeBytes).sum();
        // one of lineitem's 16 columns, and the footers: far less than the files
        assertThat(fetched).as("bytes fetched for one column of %s bytes of files", fileBytes).isLessThan(fileBytes / 4);
    }
}
