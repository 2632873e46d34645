package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Statements of one session running on several threads at once give the same results as alone. */
class SessionConcurrencyTest {
    private static final List<String> QUERIES = List.of(
            "select k, count(*), sum(amount) from t1 group by k order by k nulls first",
            "select t1.id, t2.v from t1 join t2 on t1.k = t2.k order by t1.id, t2.v",
            "select id from t1 where k not in (select k from t2 where k is not null) order by id",
            "select name from t1 order by name desc limit 3");

    @Test
    void concurrentQueriesAgreeWithSequentialOnes() throws Exception {
        try (QuerySession session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).batchSize(2).build()) {
            List<List<List<Object>>> expected = new ArrayList<>();
            for (String query : QUERIES) {
                expected.add(session.executeScript(query).rows());
            }
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> runs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int offset = t;
                    runs.add(threads.submit(() -> {
                        for (int i = 0; i < 4; i++) {
                            int q = (i + offset) % QUERIES.size();
                            assertThat(session.executeScript(QUERIES.get(q)).rows()).isEqualTo(expected.get(q));
                        }
                        return true;
                    }));
                }
                for (Future<Boolean> run : runs) {
                    assertThat(run.get(2, TimeUnit.MINUTES)).isTrue();
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(session.memoryPool().used()).isZero();
        }
    }
}
