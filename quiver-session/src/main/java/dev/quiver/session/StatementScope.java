package dev.quiver.session;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.memory.MemoryPool;

/**
 * Whose settings a statement runs with and where {@code SET} goes: the {@link QuerySession}'s own,
 * or one {@link UserSession}'s over a shared session. Also the pool the statement's query reserves from.
 */
interface StatementScope {
    /** The settings a statement submitted now runs with. */
    Settings settings();

    /** {@code SET name = value} for the statements after it in this scope. */
    void set(String name, String value);

    /** The memory pool a query started now reserves from. */
    MemoryPool pool();
}
