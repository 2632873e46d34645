package dev.quiver.distributed.client;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.Optional;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * When the coordinator asks a worker for its info again and when it gives up, all within one
 * deadline ({@code distributed.worker_info_timeout_ms}). The info call only reads, so asking
 * again is safe:
 * <ul>
 *   <li>a late answer ({@code DEADLINE_EXCEEDED}): asked again at once, each attempt waiting twice
 *       as long as the one before (from {@value #FIRST_WAIT_MS} ms), the last one what is left of
 *       the deadline. A slow worker (a loaded machine) gets the whole deadline; a call lost on a
 *       broken connection does not hold it;</li>
 *   <li>a refused or broken connection ({@code UNAVAILABLE}): asked again after 100, 200 and
 *       400 ms; the {@value #MAX_REFUSALS}th refusal means nobody listens there, so a worker that
 *       is gone fails the query within a second instead of at the deadline;</li>
 *   <li>anything else (a peer that is not a Quiver worker, an error the worker sent): no retry.</li>
 * </ul>
 * The error names the worker, what it answered, the attempts and, for a deadline, the setting that
 * raises it. One instance per call; not thread-safe.
 */
final class InfoRetry {
    static final long FIRST_WAIT_MS = 2_000;
    static final long FIRST_BACKOFF_MS = 100;
    static final int MAX_REFUSALS = 4;
    /** The longest deadline honoured (a longer one counts as this), so that no arithmetic on it overflows. */
    static final Duration LONGEST = Duration.ofDays(1);

    private final WorkerAddress address;
    private final Duration timeout;
    private final long start;
    private final long deadline;
    private long waitMs = FIRST_WAIT_MS;
    private long backoffMs = FIRST_BACKOFF_MS;
    private int attempts;
    private int refusals;

    InfoRetry(WorkerAddress address, Duration timeout) {
        this.address = requireNonNull(address, "address is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, DistributedSettings.WORKER_INFO_TIMEOUT_MS.name() + " must be positive, not "
                    + timeout.toMillis() + " ms");
        }
        this.start = System.nanoTime();
        this.deadline = start + (timeout.compareTo(LONGEST) > 0 ? LONGEST : timeout).toNanos();
    }

    /** How long the next attempt may wait for its answer; empty when the deadline has passed (never for the first attempt). */
    Optional<Duration> nextAttempt() {
        long leftMs = (deadline - System.nanoTime()) / 1_000_000;
        if (leftMs < 1 && attempts > 0) {
            return Optional.empty();
        }
        long wait = Math.max(1, Math.min(waitMs, leftMs));
        waitMs = Math.min(waitMs * 2, LONGEST.toMillis());
        attempts++;
        return Optional.of(Duration.ofMillis(wait));
    }

    /**
     * Whether {@code failure} of the last attempt is worth another one; after a refused connection
     * this waits the backoff first.
     *
     * @throws QuiverException QUERY_CANCELLED when interrupted while it waits
     */
    boolean retryAfter(FlightRuntimeException failure) {
        FlightStatusCode code = failure.status().code();
        if (code == FlightStatusCode.TIMED_OUT) {
            return true;
        }
        if (code != FlightStatusCode.UNAVAILABLE || ++refusals >= MAX_REFUSALS) {
            return false;
        }
        long leftMs = (deadline - System.nanoTime()) / 1_000_000;
        if (leftMs <= backoffMs) {
            return false;
        }
        try {
            Thread.sleep(backoffMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while asking worker " + address + " for its info");
        }
        backoffMs *= 2;
        return true;
    }

    /** The error to fail with after {@code last}, the last attempt's failure. */
    QuiverException failure(FlightRuntimeException last) {
        String tries = attempts == 1 ? "1 attempt" : attempts + " attempts";
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        if (last.status().code() == FlightStatusCode.TIMED_OUT) {
            String setting = DistributedSettings.WORKER_INFO_TIMEOUT_MS.name();
            long raised = Math.min(Math.max(timeout.toMillis(), 1_000), LONGEST.toMillis()) * 2;
            return new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + address + " did not answer the info call within " + setting + "="
                    + timeout.toMillis() + " ms (" + tries + "); if it runs but is slow (a loaded machine), raise the deadline: SET " + setting
                    + " = " + raised + " (or --set " + setting + "=" + raised + ")", last);
        }
        return new QuiverException(ErrorCode.WORKER_UNREACHABLE, "worker " + address + " is unreachable (" + FlightErrors.describe(last) + "; " + tries
                + " in " + elapsedMs + " ms); is a Quiver worker running there?", last);
    }
}
