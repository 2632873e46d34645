package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

/**
 * What the ticket of a statement's endpoint carries to the DoGet that runs it: the statement with
 * its parameter values bound, and whether it runs a query (and so waits for admission).
 */
record StatementTicket(String sql, boolean runsQuery) {
    StatementTicket {
        requireNonNull(sql, "sql is null");
    }

    byte[] encode() {
        return ((runsQuery ? "Q" : "S") + sql).getBytes(StandardCharsets.UTF_8);
    }

    static StatementTicket decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isEmpty() || (text.charAt(0) != 'Q' && text.charAt(0) != 'S')) {
            throw new IllegalArgumentException("not a Quiver statement ticket");
        }
        return new StatementTicket(text.substring(1), text.charAt(0) == 'Q');
    }
}
