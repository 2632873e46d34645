package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemColumn;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The DuckDB oracle itself: loaded from the TPC-H catalog at SF 0.01, it must reproduce every
 * answer file, which checks the loader, the query texts' dialect on DuckDB and the comparison rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuckDbTpchTest {
    private TpchCatalog catalog;
    private DuckDbTpch duckdb;

    @BeforeAll
    void load() {
        catalog = new TpchCatalog(0.01);
        duckdb = DuckDbTpch.load(catalog, 2);
    }

    @AfterAll
    void close() {
        duckdb.close();
        catalog.close();
    }

    @Test
    void loadsEveryRowExactly() {
        assertThat(duckdb.query("SELECT count(*), sum(l_extendedprice), min(l_shipdate) FROM lineitem").rows())
                .singleElement().satisfies(row -> {
                    long cents = 0;
                    int firstShipDate = Integer.MAX_VALUE;
                    for (LineItem item : TpchTable.LINE_ITEM.createGenerator(0.01, 1, 1)) {
                        cents += item.getExtendedPriceInCents();
                        firstShipDate = Math.min(firstShipDate, LineItemColumn.SHIP_DATE.getDate(item));
                    }
                    assertThat(row.get(0)).isEqualTo(60_175L);
                    assertThat(row.get(1)).isEqualTo(BigDecimal.valueOf(cents, 2));
                    assertThat(row.get(2)).isEqualTo(firstShipDate);
                });
        assertThat(duckdb.query("SELECT count(*) FROM nation").rows()).containsExactly(List.of(25L));
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void duckDbMatchesAnswerFile(int query) {
        DuckDbTpch.Result result = duckdb.query(TpchQueries.query(query));
        if (TpchQueries.isScript(query)) {
            duckdb.execute("DROP VIEW revenue");
        }
        ResultComparator.assertMatches("q" + query, result.schema(), result.rows(), AnswerFile.parse(TpchQueries.answer(query)).rows());
    }
}
