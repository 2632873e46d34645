package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What clients create on a server with a catalog directory outlives the server; EXPLAIN [ANALYZE] through JDBC. */
class ServerCatalogTest {
    @TempDir
    Path catalog;

    @Test
    void tablesAndViewsOutliveARestart() throws SQLException {
        try (ServerFixture fixture = ServerFixture.tpch(0.01, server -> {}, Long.MAX_VALUE, session -> session.catalogDirectory(catalog));
                Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("create table asia_nations as select n_name from nation where n_regionkey = 2")).isEqualTo(5);
            statement.executeUpdate("create view asia_count as select count(*) as n from asia_nations");
        }
        try (ServerFixture fixture = ServerFixture.tpch(0.01, server -> {}, Long.MAX_VALUE, session -> session.catalogDirectory(catalog));
                Connection connection = fixture.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select n from asia_count")) {
            assertThat(rows.next()).isTrue();
            // TPC-H region 2 (ASIA): INDIA, INDONESIA, JAPAN, CHINA, VIETNAM
            assertThat(rows.getLong(1)).isEqualTo(5);
        }
    }

    @Test
    void explainAndExplainAnalyzeReturnThePlan() throws SQLException {
        try (ServerFixture fixture = ServerFixture.tpch(0.01); Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
            try (ResultSet plan = statement.executeQuery("explain select count(*) from orders")) {
                assertThat(plan.next()).isTrue();
                assertThat(plan.getString(1)).containsIgnoringCase("orders");
            }
            try (ResultSet analyzed = statement.executeQuery("explain analyze select count(*) from orders")) {
                assertThat(analyzed.next()).isTrue();
                // the scan's metrics: every one of the 15 000 orders was read
                assertThat(analyzed.getString(1)).contains("output_rows=15000");
            }
            ServerFixture.awaitIdle(fixture);
        }
    }

}
