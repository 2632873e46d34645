package dev.quiver.engine.expr.function;

import java.util.List;

/** When a function's result may be NULL, given which of its arguments may be. */
public enum Nullability {
    /** Nullable when any argument is (the usual NULL in, NULL out). */
    ANY_ARGUMENT,
    /** Nullable only when every argument is ({@code coalesce}). */
    ALL_ARGUMENTS,
    /** Always nullable: NULL can come from non-NULL arguments ({@code nullif}). */
    ALWAYS,
    /** Never NULL ({@code concat} skips NULLs). */
    NEVER;

    public boolean resultNullable(List<Boolean> argumentsNullable) {
        return switch (this) {
            case ANY_ARGUMENT -> argumentsNullable.contains(true);
            case ALL_ARGUMENTS -> !argumentsNullable.isEmpty() && !argumentsNullable.contains(false);
            case ALWAYS -> true;
            case NEVER -> false;
        };
    }
}
