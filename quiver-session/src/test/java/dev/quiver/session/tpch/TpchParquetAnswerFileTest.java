package dev.quiver.session.tpch;

import dev.quiver.engine.source.parquet.ParquetTable;
import dev.quiver.engine.source.parquet.ParquetTestData;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.01 over Parquet files written from the TPC-H generator
 * (two files per table, several row groups each), against the shipped answer files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchParquetAnswerFileTest {
    @TempDir
    static Path directory;

    private QuerySession session;

    @BeforeAll
    void writeTablesAndStartSession() {
        TpchCatalog generator = new TpchCatalog(0.01);
        Map<String, TableSource> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : generator.tableNames()) {
            Path tableDirectory = directory.resolve(name);
            // small row groups, so that scans really split tables and read many row groups
            ParquetTestData.write(generator.table(name).orElseThrow(), tableDirectory, 2,
                    ParquetWriteOptions.defaults().withRowGroupRows(10_000));
            tables.put(name, ParquetTable.open(name, tableDirectory));
        }
        Catalog catalog = new Catalog() {
            @Override
            public Optional<TableSource> table(String name) {
                return Optional.ofNullable(tables.get(name));
            }

            @Override
            public Set<String> tableNames() {
                return Collections.unmodifiableSet(tables.keySet());
            }
        };
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
    }

    @AfterAll
    void closeSession() {
        // the session's close fails if any query leaked Arrow memory or reservations
        session.close();
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void matchesAnswerFile(int query) {
        AnswerFile answer = AnswerFile.parse(TpchQueries.answer(query));
        QueryResult result = session.executeScript(TpchQueries.query(query));
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW revenue").close();
        }
        ResultComparator.assertMatches("q" + query + " over Parquet", result.schema(), result.rows(), answer.rows());
    }
}
