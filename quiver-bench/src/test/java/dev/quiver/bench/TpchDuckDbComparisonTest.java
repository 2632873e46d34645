package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.ResultComparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.1 on Quiver and on DuckDB over identical data (DuckDB is
 * loaded from the same catalog), compared with {@link ResultComparator}: exact where both sides
 * are DECIMAL, 1e-9 relative against DuckDB's doubles (its AVG and decimal division). The query
 * texts run unmodified on both engines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchDuckDbComparisonTest {
    private static final double SCALE_FACTOR = 0.1;

    private TpchCatalog catalog;
    private DuckDbTpch duckdb;
    private QuerySession session;

    @BeforeAll
    void load() {
        // generated once: DuckDB loads from the catalog's cache, and Quiver's scans read it
        catalog = TpchCatalog.cached(SCALE_FACTOR, 1L << 30);
        duckdb = DuckDbTpch.load(catalog, 2);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).memoryLimit(1L << 30).build();
    }

    @AfterAll
    void close() {
        // closed in reverse order: the session (which fails on leaked memory), DuckDB, then the catalog's cache
        try (TpchCatalog third = catalog; DuckDbTpch second = duckdb; QuerySession first = session) {
            // nothing else to do
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void quiverMatchesDuckDb(int query) {
        String text = TpchQueries.query(query);
        DuckDbTpch.Result expected = duckdb.query(text);
        QueryResult actual = session.executeScript(text);
        if (TpchQueries.isScript(query)) {
            duckdb.execute("DROP VIEW revenue");
            session.execute("DROP VIEW revenue").close();
        }
        ResultComparator.assertMatches("q" + query, actual.schema(), actual.rows(), expected.rows());
    }

    /** q11 with the specification's FRACTION for this scale factor (0.0001 / SF) as the bench runs it. */
    @Test
    void q11WithTheScaledFractionMatchesDuckDb() {
        String scaled = TpchQueries.query(11, SCALE_FACTOR);
        DuckDbTpch.Result expected = duckdb.query(scaled);
        QueryResult actual = session.executeScript(scaled);
        ResultComparator.assertMatches("q11 at sf " + SCALE_FACTOR, actual.schema(), actual.rows(), expected.rows());
        // a FRACTION ten times larger than the shipped text's selects fewer parts, but some
        assertThat(actual.rows()).isNotEmpty().hasSizeLessThan(session.executeScript(TpchQueries.query(11)).rows().size());
    }
}
