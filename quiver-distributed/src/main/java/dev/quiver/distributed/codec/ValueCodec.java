package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Constants as JSON that keep their Java class: JSON numbers alone cannot tell an Integer (a DATE's
 * days) from a Long, nor keep a BigDecimal's scale, so numbers are tagged ({@code {"long": 5}},
 * {@code {"decimal": "1.50"}}). Strings, booleans and null, the common case in VALUES rows, stay bare.
 */
final class ValueCodec {
    private ValueCodec() {}

    static JsonNode encode(Object value, JsonNodeFactory nodes) {
        if (value == null) {
            return nodes.nullNode();
        }
        if (value instanceof String s) {
            return nodes.textNode(s);
        }
        if (value instanceof Boolean b) {
            return nodes.booleanNode(b);
        }
        ObjectNode tagged = nodes.objectNode();
        if (value instanceof Integer i) {
            tagged.put("int", i);
        } else if (value instanceof Long l) {
            tagged.put("long", l);
        } else if (value instanceof Double d) {
            // JSON has no NaN or infinities; Double.toString round-trips every double exactly
            tagged.put("double", Double.toString(d));
        } else if (value instanceof Float f) {
            tagged.put("float", Float.toString(f));
        } else if (value instanceof BigDecimal d) {
            tagged.put("decimal", d.toString());
        } else if (value instanceof Short s) {
            tagged.put("short", s);
        } else if (value instanceof Byte b) {
            tagged.put("byte", b);
        } else if (value instanceof byte[] bytes) {
            tagged.put("binary", Base64.getEncoder().encodeToString(bytes));
        } else {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "no codec for a constant of class " + value.getClass().getName() + " (" + value + ")");
        }
        return tagged;
    }

    static Object decode(JsonNode json) {
        if (json == null || json.isNull()) {
            return null;
        }
        if (json.isTextual()) {
            return json.textValue();
        }
        if (json.isBoolean()) {
            return json.booleanValue();
        }
        if (!json.isObject() || json.size() != 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "not a serialized constant: " + json);
        }
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        Map.Entry<String, JsonNode> entry = fields.next();
        JsonNode v = entry.getValue();
        try {
            return switch (entry.getKey()) {
                case "int" -> Math.toIntExact(v.longValue());
                case "long" -> v.longValue();
                case "double" -> Double.parseDouble(v.asText());
                case "float" -> Float.parseFloat(v.asText());
                case "decimal" -> new BigDecimal(v.asText());
                case "short" -> (short) v.intValue();
                case "byte" -> (byte) v.intValue();
                case "binary" -> Base64.getDecoder().decode(v.asText());
                default -> throw new QuiverException(ErrorCode.PLAN_ERROR, "unknown constant tag '" + entry.getKey() + "' in " + json);
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "bad serialized constant " + json + ": " + e.getMessage());
        }
    }
}
