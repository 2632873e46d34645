package dev.quiver.engine.error;

/**
 * The kind of a failure, which tells the user whom to blame and what to do: fix the query
 * ({@link #USER_ERROR}), give the query more resources ({@link #RESOURCES}), look at a system the
 * query depends on ({@link #EXTERNAL}), or report a bug ({@link #INTERNAL}).
 */
public enum ErrorCategory {
    USER_ERROR(0x0000_0000),
    INTERNAL(0x0001_0000),
    RESOURCES(0x0002_0000),
    EXTERNAL(0x0003_0000);

    private final int codeBase;

    ErrorCategory(int codeBase) {
        this.codeBase = codeBase;
    }

    /** The first numeric code of this category's range; codes of a category are {@code base + n}. */
    public int codeBase() {
        return codeBase;
    }
}
