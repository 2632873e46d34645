package dev.quiver.engine.expr;

/** Operators of {@link BinaryExpr}. */
public enum BinaryOperator {
    PLUS("+"),
    MINUS("-"),
    MULTIPLY("*"),
    DIVIDE("/"),
    MODULO("%"),
    EQ("="),
    NOT_EQ("<>"),
    LT("<"),
    LT_EQ("<="),
    GT(">"),
    GT_EQ(">="),
    AND("AND"),
    OR("OR"),
    /** {@code a IS NOT DISTINCT FROM b}: equality where NULL equals NULL, never NULL itself. */
    IS_NOT_DISTINCT_FROM("IS NOT DISTINCT FROM"),
    IS_DISTINCT_FROM("IS DISTINCT FROM");

    private final String symbol;

    BinaryOperator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    public boolean isComparison() {
        return switch (this) {
            case EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> true;
            default -> false;
        };
    }

    public boolean isArithmetic() {
        return switch (this) {
            case PLUS, MINUS, MULTIPLY, DIVIDE, MODULO -> true;
            default -> false;
        };
    }
}
