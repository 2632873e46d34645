package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The session's statements other than plain queries, and its lifecycle. */
class SessionStatementsTest {
    private QuerySession session;

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(3).batchSize(4).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @Test
    void selectsColumnsUnderTheQueryNames() {
        QueryResult result = session.executeScript("select name as fruit, id from t1 where true");
        assertThat(result.columnNames()).containsExactly("fruit", "id");
        assertThat(result.schema().getFields().get(0).getName()).isEqualTo("fruit");
        assertThat(result.rows()).hasSize(10).contains(List.of("banana", 2));
    }

    @Test
    void valuesAndUnionAll() {
        QueryResult result = session.executeScript("values (1, 'a'), (2, 'b') union all select qty, v from t2");
        assertThat(result.rows()).hasSize(9).contains(List.of(1, "a"), List.of(2, "b"), List.of(7, "thirty"));
    }

    @Test
    void limitWithoutOrderTakesThatManyRows() {
        assertThat(session.executeScript("select id from t1 limit 3").rows()).hasSize(3);
        assertThat(session.executeScript("select id from t1 offset 8").rows()).hasSize(2);
        assertThat(session.executeScript("select id from t1 limit 4 offset 8").rows()).hasSize(2);
        assertThat(session.executeScript("select id from t1 limit 0").rows()).isEmpty();
    }

    @Test
    void explainShowsThePhysicalPlan() {
        QueryResult result = session.executeScript("explain select name from t1");
        assertThat(result.columnNames()).containsExactly("plan");
        assertThat(result.rows()).hasSize(1);
        assertThat((String) result.rows().get(0).get(0)).contains("MemoryScanExec");
    }

    @Test
    void explainAnalyzeRunsTheQueryAndShowsMetrics() {
        QueryResult result = session.executeScript("explain analyze select k, count(*) from t1 group by k");
        assertThat(result.columnNames()).containsExactly("plan");
        String plan = (String) result.rows().get(0).get(0);
        // 6 groups: 10, 20, 30, 40, 50 and NULL
        assertThat(plan).contains("HashAggregateExec: mode=FINAL").contains("output_rows=6");
        assertThat(plan).contains("MemoryScanExec").contains("output_rows=10");
    }

    @Test
    void setChangesSettingsAndRejectsUnknownNames() {
        session.executeScript("SET target_partitions = 1; SET batch_size = 2; SET memory_limit = '64MiB'");
        assertThat(session.settings().get(EngineSettings.TARGET_PARTITIONS)).isEqualTo(1);
        assertThat(session.settings().get(EngineSettings.BATCH_SIZE)).isEqualTo(2);
        assertThat(session.settings().get(SessionSettings.MEMORY_LIMIT)).isEqualTo(64L << 20);
        assertThat(session.memoryPool().limit()).isEqualTo(64L << 20);
        assertThat((String) session.executeScript("explain select id from t1").rows().get(0).get(0)).contains("partitions=1");
        assertThatThrownBy(() -> session.executeScript("set parallelism = 4"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                .hasMessageContaining("target_partitions");
    }

    @Test
    void viewsCanBeCreatedReplacedAndDropped() {
        session.executeScript("-- a view; with comments\ncreate view fruits as select id, name from t1;");
        assertThat(session.executeScript("select name from fruits").rows()).hasSize(10);
        assertThatThrownBy(() -> session.executeScript("create view fruits as select 1 as x"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        session.executeScript("create or replace view fruits as select v from t2");
        assertThat(session.executeScript("select * from fruits").columnNames()).containsExactly("v");
        session.executeScript("drop view fruits; drop view if exists fruits");
        assertThatThrownBy(() -> session.executeScript("select * from fruits"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
        assertThatThrownBy(() -> session.executeScript("drop view fruits"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
    }

    @Test
    void invalidViewBodyIsRejectedAtCreation() {
        assertThatThrownBy(() -> session.executeScript("create view broken as select nope from t1"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.COLUMN_NOT_FOUND));
        assertThat(session.views()).isEmpty();
    }

    @Test
    void scriptReturnsTheLastResult() {
        QueryResult result = session.executeScript("select id from t1; select v from t2;");
        assertThat(result.columnNames()).containsExactly("v");
        assertThat(result.rows()).hasSize(7);
    }

    @Test
    void handleStreamsBatchesOnceAndCanBeCancelled() {
        try (QueryHandle handle = session.execute("select id, name from t1")) {
            assertThat(handle.columnNames()).containsExactly("id", "name");
            BatchStream stream = handle.stream();
            VectorSchemaRoot first = stream.next();
            assertThat(first).isNotNull();
            first.close();
            assertThatThrownBy(handle::stream).isInstanceOf(QuiverException.class);
            handle.cancel();
            assertThatThrownBy(() -> {
                VectorSchemaRoot batch;
                while ((batch = stream.next()) != null) {
                    batch.close();
                }
            }).isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        }
        assertThat(session.executeScript("select id from t1").rows()).hasSize(10);
    }

    @Test
    void syntaxErrorsKeepTheSessionUsable() {
        assertThatThrownBy(() -> session.executeScript("select from where"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR));
        assertThat(session.executeScript("select id from t1").rows()).hasSize(10);
    }

    @Test
    void closingWithAnOpenHandleReportsTheLeak() {
        QuerySession other = QuerySession.builder().catalog(TestTables.catalog()).build();
        QueryHandle handle = other.execute("select id from t1");
        VectorSchemaRoot batch = handle.stream().next();
        assertThatThrownBy(other::close)
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        batch.close();
    }
}
