package dev.quiver.session.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.01, as shipped in io.trino.tpch, against the answers
 * shipped beside them (see {@link ResultComparator} for how values are compared).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchAnswerFileTest {
    private TpchCatalog catalog;
    private QuerySession session;

    @BeforeAll
    void startSession() {
        // cached: each table is generated once for the 22 queries
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
    }

    @AfterAll
    void closeSession() {
        // the session's close fails if any query leaked Arrow memory or reservations
        try (TpchCatalog closedLast = catalog; QuerySession closedFirst = session) {
            // the session goes before the catalog's cache
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void matchesAnswerFile(int query) {
        AnswerFile answer = AnswerFile.parse(TpchQueries.answer(query));
        assertThat(answer.ignoreOrder()).isFalse();
        QueryResult result = session.executeScript(TpchQueries.query(query));
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW revenue").close();
        }
        ResultComparator.assertMatches("q" + query, result.schema(), result.rows(), answer.rows());
    }
}
