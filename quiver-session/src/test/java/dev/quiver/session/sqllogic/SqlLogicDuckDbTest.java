package dev.quiver.session.sqllogic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.AssertionFailedError;

/**
 * The expected rows of every {@code .slt} file are DuckDB's: each query record's types and rows must
 * equal what DuckDB (in-process, on the same Parquet files) answers today, and each {@code statement
 * ok} must run on DuckDB. With {@code -Dslt.update=true} it rewrites the files instead
 * ({@link SltRewriter}): that is the update mode, the only way expected rows get into a file.
 * Error records are written by hand and not run here.
 */
@ExtendWith(SuiteDataExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlLogicDuckDbTest {
    static final String UPDATE_PROPERTY = "slt.update";

    private final boolean update = Boolean.getBoolean(UPDATE_PROPERTY);
    private DuckDbDatabase duckDb;

    @BeforeAll
    void start(SuiteData data) {
        duckDb = data.duckDb();
    }

    @AfterAll
    void stop() throws SQLException {
        if (duckDb != null) {
            duckDb.close();
        }
    }

    @TestFactory
    Stream<DynamicNode> files() {
        return SltFiles.selected().stream().map(this::container);
    }

    private DynamicContainer container(SltFiles.SltFile file) {
        URI source = file.path().toUri();
        Map<SltRecord.Query, DuckDbDatabase.Result> results = new LinkedHashMap<>();
        List<DynamicNode> tests = new ArrayList<>();
        AtomicReference<Set<String>> before = new AtomicReference<>(Set.of());
        tests.add(DynamicTest.dynamicTest(file.name() + ": start", source, () -> before.set(duckDb.relations())));
        for (SltRecord record : file.records()) {
            if (record.error().isEmpty()) {
                tests.add(DynamicTest.dynamicTest(record.where(), URI.create(source + "?line=" + record.line()), () -> check(record, results)));
            }
        }
        tests.add(DynamicTest.dynamicTest(file.name() + ": end", source, () -> {
            duckDb.dropAllBut(before.get());
            if (update) {
                List<String> rewritten = SltRewriter.rewrite(file.lines(), results);
                if (!rewritten.equals(file.lines())) {
                    Files.writeString(file.path(), String.join("\n", rewritten) + "\n", StandardCharsets.UTF_8);
                }
            }
        }));
        return DynamicContainer.dynamicContainer(file.name(), source, tests.stream());
    }

    private void check(SltRecord record, Map<SltRecord.Query, DuckDbDatabase.Result> results) throws IOException {
        String sql = record.duckDbText();
        try {
            if (record instanceof SltRecord.Query query) {
                DuckDbDatabase.Result result = duckDb.query(sql);
                results.put(query, result);
                if (!update) {
                    assertSameAsFile(query, result);
                }
            } else if (!sql.isBlank()) {
                duckDb.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionFailedError(record.where() + ": DuckDB fails on it (give the record a '" + SltParser.DUCKDB_MARKER
                    + "' text in DuckDB's dialect, or make it an error record): " + e.getMessage() + "\nDuckDB SQL: " + sql, e);
        }
    }

    private static void assertSameAsFile(SltRecord.Query query, DuckDbDatabase.Result result) {
        String hint = query.where() + ": the file's expected rows are not DuckDB's; regenerate them with -D" + UPDATE_PROPERTY + "=true";
        assertThat(query.expected()).as(hint + " (the record has none yet)").isPresent();
        assertThat(ResultMatcher.letters(query.types())).as(hint + " (column types)").isEqualTo(ResultMatcher.letters(result.types()));
        assertThat(query.expected().orElseThrow()).as(hint)
                .isEqualTo(ResultMatcher.arranged(result.lines(), query.sortMode()));
    }
}
