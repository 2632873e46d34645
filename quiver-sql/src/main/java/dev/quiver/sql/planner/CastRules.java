package dev.quiver.sql.planner;

import com.google.common.collect.ImmutableSet;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeCoercionRule;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The casts SQL may write: Calcite's, plus BOOLEAN to and from every number, which DuckDB and
 * PostgreSQL allow ({@code CAST(true AS INTEGER)} is 1) and the engine's cast kernel computes.
 */
final class CastRules {
    static final SqlTypeCoercionRule RULES = rules();

    private CastRules() {}

    private static SqlTypeCoercionRule rules() {
        Map<SqlTypeName, ImmutableSet<SqlTypeName>> mapping = new HashMap<>(SqlTypeCoercionRule.instance().getTypeMapping());
        for (SqlTypeName number : SqlTypeName.NUMERIC_TYPES) {
            mapping.put(number, ImmutableSet.<SqlTypeName>builder().addAll(mapping.getOrDefault(number, ImmutableSet.of()))
                    .add(SqlTypeName.BOOLEAN).build());
        }
        mapping.put(SqlTypeName.BOOLEAN, ImmutableSet.<SqlTypeName>builder()
                .addAll(mapping.getOrDefault(SqlTypeName.BOOLEAN, ImmutableSet.of())).addAll(SqlTypeName.NUMERIC_TYPES).build());
        return SqlTypeCoercionRule.instance(mapping);
    }
}
