package dev.quiver.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

class FileReferenceTokensTest {
    private static String parse(String sql) throws Exception {
        SqlNode node = SqlParser.create(sql, SqlPlanner.PARSER_CONFIG).parseQuery();
        return node.toString().replace("\n", " ");
    }

    @Test
    void aStringInFromIsAQuotedIdentifier() throws Exception {
        assertThat(parse("SELECT a FROM 'x.parquet'")).isEqualTo("SELECT `a` FROM `x.parquet`");
        assertThat(parse("SELECT a FROM t, 'it''s.csv' AS f JOIN 'y.parquet' ON true")).isEqualTo(
                "SELECT `a` FROM `t`, `it's.csv` AS `f` INNER JOIN `y.parquet` ON TRUE");
    }

    @Test
    void aStringElsewhereStaysAString() throws Exception {
        assertThat(parse("SELECT 'x.parquet', f('a', 'b') FROM t WHERE s IN ('a', 'b') GROUP BY s, 'c'"))
                .isEqualTo("SELECT 'x.parquet', `f`('a', 'b') FROM `t` WHERE `s` IN ('a', 'b') GROUP BY `s`, 'c'");
        assertThat(parse("SELECT * FROM t WHERE x = (SELECT max(y) FROM u WHERE z IN ('q', 'r'))"))
                .contains("IN ('q', 'r')");
    }

    @Test
    void aReadingFunctionsCallInFromIsOneName() throws Exception {
        assertThat(parse("SELECT * FROM read_csv('a.csv', delim = ';', columns = {'a': 'INTEGER'}) AS t"))
                .isEqualTo("SELECT * FROM `read_csv('a.csv', delim = ';', columns = {'a': 'INTEGER'})` AS `t`");
        assertThat(parse("SELECT * FROM t JOIN read_parquet(['a.parquet', 'b.parquet'], hive_partitioning=true) p ON t.k = p.k"))
                .contains("`read_parquet(['a.parquet', 'b.parquet'], hive_partitioning=true)` AS `p`");
    }

    @Test
    void aQueryMayStartWithFrom() throws Exception {
        assertThat(parse("FROM 'x.parquet' WHERE a > 1")).isEqualTo("SELECT * FROM `x.parquet` WHERE `a` > 1");
    }
}
