package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.StatementDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement a client prepared: its text, what it returns, and the parameter values last bound to
 * it (a Flight SQL client binds them with a DoPut before it executes).
 */
final class PreparedStatement {
    private final String handle;
    private final String sql;
    private final StatementDescription description;
    private List<Object> values = List.of();

    PreparedStatement(String handle, String sql, StatementDescription description) {
        this.handle = requireNonNull(handle, "handle is null");
        this.sql = requireNonNull(sql, "sql is null");
        this.description = requireNonNull(description, "description is null");
    }

    String handle() {
        return handle;
    }

    String sql() {
        return sql;
    }

    StatementDescription description() {
        return description;
    }

    synchronized void bind(List<Object> parameters) {
        this.values = new ArrayList<>(parameters);
    }

    /** The statement with the bound values in place of its parameters. */
    synchronized String boundSql() {
        if (description.parameters().isEmpty()) {
            return sql;
        }
        if (values.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The statement has " + description.parameters().size()
                    + " parameter(s) but none were bound");
        }
        return description.bind(sql, values);
    }
}
