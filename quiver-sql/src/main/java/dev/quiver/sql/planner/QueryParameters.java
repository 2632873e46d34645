package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.physical.TypeMapping;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/**
 * The {@code ?} parameters of a query (a prepared statement's): where they are in the text, the
 * types Calcite infers for them from their context ({@link SqlPlanner#parameterTypes}), and the
 * text with values bound in their place as typed literals.
 *
 * <p>Binding writes literals into the text rather than carrying values through planning: the
 * planned query is then exactly the query a user could have typed, folded and executed the same
 * way, so a parameter can never take a path of its own. Each literal is cast to the inferred type
 * ({@code CAST(7 AS BIGINT)}), so a bound query means what the prepared one did.
 */
public final class QueryParameters {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private QueryParameters() {}

    /**
     * A validated query with parameters.
     *
     * @param schema the query's columns
     * @param parameters one field per {@code ?}, in order, with the type Calcite inferred for it
     */
    public record Prepared(Schema schema, List<Field> parameters) {
        public Prepared {
            requireNonNull(schema, "schema is null");
            parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        }
    }

    /** The offsets of the {@code ?} markers of {@code sql} outside string literals, quoted identifiers and comments. */
    public static List<Integer> markers(String sql) {
        return new SqlTokens(requireNonNull(sql, "sql is null")).parameterMarkers();
    }

    /**
     * {@code sql} with each {@code ?} replaced by its value as a literal of its type.
     *
     * @param types the parameters' types, as {@link SqlPlanner#prepare} inferred them
     * @param values one value per parameter ({@code null} for SQL NULL): a Number, BigDecimal,
     *     String, Boolean, LocalDate (or Integer days since the epoch), LocalDateTime
     */
    public static String bind(String sql, List<Field> types, List<?> values) {
        List<Integer> markers = markers(sql);
        if (markers.size() != types.size() || values.size() != types.size()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The statement has " + markers.size() + " parameter"
                    + (markers.size() == 1 ? "" : "s") + " (?) but " + values.size() + " value" + (values.size() == 1 ? " was" : "s were") + " bound");
        }
        StringBuilder bound = new StringBuilder(sql.length() + 16 * markers.size());
        int copied = 0;
        for (int i = 0; i < markers.size(); i++) {
            bound.append(sql, copied, markers.get(i)).append(literal(types.get(i).getType(), values.get(i), i + 1));
            copied = markers.get(i) + 1;
        }
        return bound.append(sql, copied, sql.length()).toString();
    }

    /** The types of the parameters of a converted query, by index; every one of {@code count} must occur. */
    static List<Field> types(RelNode rel, int count) {
        RexDynamicParam[] found = new RexDynamicParam[count];
        RexShuttle collector = new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam param) {
                if (param.getIndex() < count) {
                    found[param.getIndex()] = param;
                }
                return param;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                visitAll(subQuery.rel, this);
                return super.visitSubQuery(subQuery);
            }
        };
        visitAll(rel, collector);
        List<Field> types = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (found[i] == null) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Cannot tell the type of parameter " + (i + 1)
                        + " (?) from where it stands; write CAST(? AS type)");
            }
            types.add(TypeMapping.field("p" + (i + 1), found[i].getType()));
        }
        return types;
    }

    /** Every node's expressions (filter conditions, projections, join conditions, a sort's fetch and offset). */
    private static void visitAll(RelNode rel, RexShuttle collector) {
        rel.accept(collector);
        for (RelNode input : rel.getInputs()) {
            visitAll(input, collector);
        }
    }

    private static String literal(ArrowType type, Object value, int position) {
        if (value == null) {
            return "CAST(NULL AS " + sqlType(type) + ")";
        }
        try {
            return switch (type.getTypeID()) {
                case Int -> "CAST(" + ((Number) value).longValue() + " AS " + sqlType(type) + ")";
                case Decimal -> "CAST(" + decimal(value).toPlainString() + " AS " + sqlType(type) + ")";
                case FloatingPoint -> "CAST('" + ((Number) value).doubleValue() + "' AS DOUBLE)";
                case Utf8 -> "'" + value.toString().replace("'", "''") + "'";
                case Bool -> ((Boolean) value) ? "TRUE" : "FALSE";
                case Date -> "DATE '" + date(value) + "'";
                case Timestamp -> "TIMESTAMP '" + TIMESTAMP.format((LocalDateTime) value) + "'";
                default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Parameter " + position + " has type " + type
                        + ", which a parameter cannot have; cast it: CAST(? AS VARCHAR)");
            };
        } catch (ClassCastException e) {
            throw new QuiverException(ErrorCode.TYPE_MISMATCH, "Parameter " + position + " is " + sqlType(type) + " but was bound to a "
                    + value.getClass().getSimpleName() + " (" + value + ")");
        }
    }

    private static BigDecimal decimal(Object value) {
        return value instanceof BigDecimal decimal ? decimal : new BigDecimal(value.toString());
    }

    private static LocalDate date(Object value) {
        return value instanceof LocalDate date ? date : LocalDate.ofEpochDay(((Number) value).longValue());
    }

    private static String sqlType(ArrowType type) {
        return QuiverTypes.sqlName(type);
    }
}
