package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Cancellation, SHOW QUERIES / KILL QUERY and admission, through the JDBC driver. The long query is
 * a cross join of lineitem with itself (3.6 billion rows at SF 0.01) that a client reads only the
 * start of: it stays running, held by back-pressure, until it is cancelled.
 */
class ServerQueriesTest {
    @Test
    void statementCancelEndsTheQueryAndReturnsItsMemory() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01)) {
            try (Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
                ResultSet rows = statement.executeQuery(ServerFixture.LONG_QUERY);
                assertThat(rows.next()).isTrue();
                assertThat(ServerFixture.queries(fixture)).singleElement().satisfies(row -> assertThat(row.get(2)).isEqualTo("RUNNING"));
                statement.cancel();
                assertThatThrownBy(() -> {
                    while (rows.next()) {
                        // the rows sent before the cancel
                    }
                }).isInstanceOf(SQLException.class);
                ServerFixture.awaitIdle(fixture);
                // the connection goes on
                try (Statement next = connection.createStatement(); ResultSet count = next.executeQuery("select count(*) from nation")) {
                    assertThat(count.next()).isTrue();
                    assertThat(count.getLong(1)).isEqualTo(25);
                }
            }
            ServerFixture.awaitIdle(fixture);
        }
    }

    @Test
    void killQueryEndsAnotherClientsQuery() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01);
                Connection victim = fixture.connect(); Connection admin = fixture.connect();
                Statement statement = victim.createStatement(); Statement killer = admin.createStatement()) {
            ResultSet rows = statement.executeQuery(ServerFixture.LONG_QUERY);
            assertThat(rows.next()).isTrue();
            List<List<Object>> running = ServerFixture.queries(fixture);
            assertThat(running).singleElement().satisfies(row -> assertThat(row.get(7).toString()).contains("lineitem a, lineitem b"));
            assertThat(killer.executeUpdate("KILL QUERY '" + running.get(0).get(0) + "'")).isEqualTo(1);
            // an error in the middle of a stream: the 18.3.0 driver's ResultSet.next() throws it as Flight's unchecked exception
            assertThatThrownBy(() -> {
                while (rows.next()) {
                    // what was sent before the kill
                }
            }).hasMessageContaining("QUERY_CANCELLED");
            ServerFixture.awaitIdle(fixture);
            assertThatThrownBy(() -> killer.executeUpdate("KILL QUERY query_999"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("No query query_999");
        }
    }

    /** Two queries that each need most of the pool: the second waits until the first ends, then runs and is correct. */
    @Test
    void aQueryWaitsForMemoryThenRuns() throws Exception {
        AdmissionSettings admission = new AdmissionSettings(4, 8, Duration.ofMinutes(2), 384L << 20);
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.admission(admission), 512L << 20);
                Connection first = fixture.connect(); Connection second = fixture.connect(); Statement holder = first.createStatement()) {
            ResultSet held = holder.executeQuery(ServerFixture.LONG_QUERY);
            assertThat(held.next()).isTrue();
            CompletableFuture<JdbcResults> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return JdbcTpchTest.run(second, TpchQueries.query(1));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            ServerFixture.await("q1 waits for admission", () -> ServerFixture.queries(fixture).stream().anyMatch(row -> row.get(2).equals("QUEUED")));
            assertThat(waiting).isNotDone();
            holder.cancel();
            JdbcResults q1 = waiting.get(120, TimeUnit.SECONDS);
            ResultComparator.assertMatches("q1", q1.schema(), q1.rows(), AnswerFile.parse(TpchQueries.answer(1)).rows());
            held.close();
            ServerFixture.awaitIdle(fixture);
        }
    }

    @Test
    void aQueryThatWaitsTooLongFailsWithTheQueueTimeout() throws Exception {
        AdmissionSettings admission = new AdmissionSettings(1, 8, Duration.ofSeconds(1), 64L << 20);
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.admission(admission), 512L << 20);
                Connection first = fixture.connect(); Connection second = fixture.connect();
                Statement holder = first.createStatement(); Statement late = second.createStatement()) {
            ResultSet held = holder.executeQuery(ServerFixture.LONG_QUERY);
            assertThat(held.next()).isTrue();
            assertThatThrownBy(() -> late.executeQuery("select count(*) from orders"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("QUERY_QUEUE_TIMEOUT")
                    .hasMessageContaining("timed out");
            holder.cancel();
            held.close();
            ServerFixture.awaitIdle(fixture);
            // once the first is gone, the next runs at once
            try (ResultSet count = late.executeQuery("select count(*) from orders")) {
                assertThat(count.next()).isTrue();
                assertThat(count.getLong(1)).isEqualTo(15_000);
            }
        }
    }

    @Test
    void showQueriesListsARunningQuery() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01); Connection running = fixture.connect(); Connection watcher = fixture.connect();
                Statement held = running.createStatement(); Statement show = watcher.createStatement()) {
            ResultSet rows = held.executeQuery(ServerFixture.LONG_QUERY);
            assertThat(rows.next()).isTrue();
            try (ResultSet queries = show.executeQuery("show queries")) {
                List<String> columns = new ArrayList<>();
                for (int c = 1; c <= queries.getMetaData().getColumnCount(); c++) {
                    columns.add(queries.getMetaData().getColumnName(c));
                }
                assertThat(columns).containsExactly("query_id", "user", "state", "elapsed_ms", "memory_bytes", "peak_memory_bytes", "session", "query");
                assertThat(queries.next()).isTrue();
                assertThat(queries.getString("state")).isEqualTo("RUNNING");
                assertThat(queries.getString("query")).isEqualTo(ServerFixture.LONG_QUERY);
                assertThat(queries.getLong("elapsed_ms")).isNotNegative();
                assertThat(queries.next()).isFalse();
            }
            held.cancel();
            ServerFixture.awaitIdle(fixture);
        }
    }
}
