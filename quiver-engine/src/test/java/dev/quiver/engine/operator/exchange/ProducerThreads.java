package dev.quiver.engine.operator.exchange;

import java.util.List;

/** The executor threads of an exchange's producers, found by the name they run under. */
final class ProducerThreads {
    private ProducerThreads() {}

    /**
     * Waits until no thread runs under a name containing {@code marker} (the executor names a thread
     * after the producer it runs and renames it just after the producer's body returns), at most 10 s;
     * returns the names still running then (empty when every producer returned).
     */
    static List<String> awaitNone(String marker) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<String> names = running(marker);
        while (!names.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            names = running(marker);
        }
        return names;
    }

    private static List<String> running(String marker) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(name -> name.contains(marker)).toList();
    }
}
