package dev.quiver.session.sqllogic;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.opentest4j.AssertionFailedError;

/** Runs one record on a Quiver session and fails (an {@link AssertionError} naming the record) when Quiver does not do what it expects. */
final class QuiverRecordRunner {
    private final QuerySession session;
    private final RunMode mode;

    QuiverRecordRunner(QuerySession session, RunMode mode) {
        this.session = requireNonNull(session, "session is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    void run(SltRecord record) {
        Optional<SltRecord.ExpectedError> error = record.error();
        if (error.isPresent()) {
            expectError(record, error.get());
            return;
        }
        QueryResult result;
        try {
            result = execute(record.sql());
        } catch (QuiverException e) {
            throw failure(record, "failed with " + e.errorCode() + ": " + e.getMessage(), e);
        }
        if (record instanceof SltRecord.Query query) {
            List<String> expected = query.expected().orElseThrow(() -> failure(record,
                    "has no expected rows ('----'): write them with the update mode (README.md beside the files)", null));
            ResultMatcher.mismatch(query, expected, result.schema(), result.rows()).ifPresent(why -> {
                throw failure(record, why, null);
            });
        }
    }

    private void expectError(SltRecord record, SltRecord.ExpectedError error) {
        try {
            QueryResult result = execute(record.sql());
            throw failure(record, "expected error " + error.code() + " but it succeeded with " + result.rowCount() + " rows", null);
        } catch (QuiverException e) {
            if (e.errorCode() != error.code()) {
                throw failure(record, "expected error " + error.code() + " but got " + e.errorCode() + ": " + e.getMessage(), e);
            }
            if (error.message().isPresent() && !error.message().get().matcher(e.getMessage()).find()) {
                throw failure(record, "the " + e.errorCode() + " message does not match /" + error.message().get() + "/: " + e.getMessage(), e);
            }
        }
    }

    /** Runs one statement to its end; a distributed one also until every task of it is terminal. */
    private QueryResult execute(String sql) {
        QueryHandle handle = session.execute(sql);
        QueryResult result = handle.collect();
        if (handle.isDistributed()) {
            awaitFinalPlan(handle);
        }
        return result;
    }

    private static void awaitFinalPlan(QueryHandle handle) {
        FinalPlan plan;
        try {
            plan = handle.finalPlan().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the final plan of " + handle.queryId() + " did not complete", e);
        }
        if (plan.failure().isPresent()) {
            throw new AssertionError("the query returned its rows but its final plan records a failure: " + plan.failure().get());
        }
    }

    private AssertionFailedError failure(SltRecord record, String why, Throwable cause) {
        return new AssertionFailedError(record.where() + " [" + mode.label() + "] " + why + "\nSQL: " + record.sql(), cause);
    }
}
