package dev.quiver.engine.testing;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for a condition that other threads or processes make true (a worker dropping a task's state after its final report). */
public final class Eventually {
    private Eventually() {}

    /** Polls {@code value} until it equals {@code expected}, for at most {@code within}; returns the last value seen. */
    public static <T> T await(Supplier<T> value, T expected, Duration within) {
        return awaitUntil(value, expected::equals, within);
    }

    /** Polls {@code value} until {@code done} accepts it, for at most {@code within}; returns the last value seen. */
    public static <T> T awaitUntil(Supplier<T> value, Predicate<T> done, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        T seen = value.get();
        while (!done.test(seen) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return seen;
            }
            seen = value.get();
        }
        return seen;
    }
}
