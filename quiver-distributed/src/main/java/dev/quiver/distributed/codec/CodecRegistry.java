package dev.quiver.distributed.codec;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The codecs of one {@link PlanCodec}, by exact class and by type name; both must be unique. */
final class CodecRegistry {
    private final Map<Class<?>, PlanNodeCodec<?>> nodesByClass = new LinkedHashMap<>();
    private final Map<String, PlanNodeCodec<?>> nodesByName = new LinkedHashMap<>();
    private final Map<Class<?>, ExprCodec<?>> exprsByClass = new LinkedHashMap<>();
    private final Map<String, ExprCodec<?>> exprsByName = new LinkedHashMap<>();

    void addNode(PlanNodeCodec<?> codec) {
        requireNonNull(codec, "codec is null");
        String name = checkedName(codec.typeName());
        Class<?> nodeClass = requireNonNull(codec.nodeClass(), "codec " + name + " has no node class");
        if (nodesByName.containsKey(name)) {
            throw duplicate("plan node codec named '" + name + "'", nodesByName.get(name).nodeClass());
        }
        if (nodesByClass.containsKey(nodeClass)) {
            throw duplicate("plan node codec for " + nodeClass.getName(), nodeClass);
        }
        nodesByName.put(name, codec);
        nodesByClass.put(nodeClass, codec);
    }

    void addExpr(ExprCodec<?> codec) {
        requireNonNull(codec, "codec is null");
        String name = checkedName(codec.typeName());
        Class<?> exprClass = requireNonNull(codec.exprClass(), "codec " + name + " has no expression class");
        if (exprsByName.containsKey(name)) {
            throw duplicate("expression codec named '" + name + "'", exprsByName.get(name).exprClass());
        }
        if (exprsByClass.containsKey(exprClass)) {
            throw duplicate("expression codec for " + exprClass.getName(), exprClass);
        }
        exprsByName.put(name, codec);
        exprsByClass.put(exprClass, codec);
    }

    Optional<PlanNodeCodec<?>> nodeByClass(Class<?> nodeClass) {
        return Optional.ofNullable(nodesByClass.get(nodeClass));
    }

    Optional<PlanNodeCodec<?>> nodeByName(String name) {
        return Optional.ofNullable(nodesByName.get(name));
    }

    Optional<ExprCodec<?>> exprByClass(Class<?> exprClass) {
        return Optional.ofNullable(exprsByClass.get(exprClass));
    }

    Optional<ExprCodec<?>> exprByName(String name) {
        return Optional.ofNullable(exprsByName.get(name));
    }

    private static String checkedName(String name) {
        if (name == null || name.isBlank() || name.startsWith("@")) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "codec type name must be non-blank and not start with '@': " + name);
        }
        return name;
    }

    private static QuiverException duplicate(String what, Class<?> registeredFor) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT,
                "a " + what + " is already registered (for " + registeredFor.getName() + "); codec names and classes must be unique");
    }
}
