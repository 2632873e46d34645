package dev.quiver.engine.expr.function;

import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The family of types a function parameter accepts. An untyped NULL (Arrow {@code Null}) fits
 * every family: {@code upper(NULL)} is a VARCHAR NULL.
 */
public enum ArgType {
    ANY("any"),
    STRING("VARCHAR"),
    BOOLEAN("BOOLEAN"),
    /** INTEGER or BIGINT. */
    INTEGER("INTEGER"),
    /** Any number: integers, decimals, DOUBLE. */
    NUMERIC("NUMERIC"),
    DATE("DATE"),
    TIMESTAMP("TIMESTAMP"),
    /** DATE or TIMESTAMP. */
    DATETIME("DATE|TIMESTAMP"),
    /** A list of any element type ({@code INTEGER[]}). */
    LIST("LIST"),
    MAP("MAP");

    private final String display;

    ArgType(String display) {
        this.display = display;
    }

    public boolean accepts(ArrowType type) {
        if (type instanceof ArrowType.Null) {
            return true;
        }
        return switch (this) {
            case ANY -> true;
            case STRING -> type instanceof ArrowType.Utf8;
            case BOOLEAN -> type instanceof ArrowType.Bool;
            case INTEGER -> type instanceof ArrowType.Int;
            case NUMERIC -> QuiverTypes.isNumeric(type);
            case DATE -> type instanceof ArrowType.Date;
            case TIMESTAMP -> type instanceof ArrowType.Timestamp;
            case DATETIME -> type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp;
            case LIST -> type instanceof ArrowType.List;
            case MAP -> type instanceof ArrowType.Map;
        };
    }

    /** How signatures show the family, e.g. {@code VARCHAR}. */
    public String display() {
        return display;
    }
}
