package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.ScriptStatement;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries at scale factor 0.01 through the Arrow Flight SQL JDBC driver against a
 * Quiver server, each result equal to its answer file (compared as the session's TPC-H test does).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcTpchTest {
    private ServerFixture fixture;
    private Connection connection;

    @BeforeAll
    void start() throws SQLException {
        fixture = ServerFixture.tpch(0.01);
        connection = fixture.connect();
    }

    @AfterAll
    void stop() throws SQLException {
        try (ServerFixture closedLast = fixture; Connection closedFirst = connection) {
            // the connection goes before the server
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void matchesAnswerFile(int query) throws SQLException {
        AnswerFile answer = AnswerFile.parse(TpchQueries.answer(query));
        JdbcResults results = run(connection, TpchQueries.query(query));
        ResultComparator.assertMatches("q" + query, results.schema(), results.rows(), answer.rows());
        assertThat(answer.rows()).isNotEmpty();
    }

    /** Runs a TPC-H text: each statement of a script in order (q15 makes a view, queries it, drops it), the query's rows returned. */
    static JdbcResults run(Connection connection, String text) throws SQLException {
        JdbcResults last = null;
        for (ScriptStatement statement : ScriptStatement.split(text)) {
            try (Statement jdbc = connection.createStatement()) {
                if (jdbc.execute(statement.text())) {
                    try (ResultSet rows = jdbc.getResultSet()) {
                        last = JdbcResults.read(rows);
                    }
                }
            }
        }
        return last;
    }
}
