package dev.quiver.engine.expr.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class FunctionRegistryTest {
    private static final FunctionRegistry REGISTRY = FunctionRegistry.builtins();
    private static final Pattern HOLE = Pattern.compile("\\{(\\d+)}");

    @Test
    void everyFunctionIsDescribedAndItsFormsFitItsSignatures() {
        Set<String> names = new HashSet<>();
        for (ScalarFunction function : REGISTRY.functions()) {
            assertThat(function.description()).as(function.name()).isNotBlank();
            for (String name : function.names()) {
                assertThat(names.add(name)).as("unique name " + name).isTrue();
                assertThat(REGISTRY.lookup(name.toUpperCase(java.util.Locale.ROOT))).contains(function);
            }
            int maxArguments = function.signatures().stream().mapToInt(Signature::maxArguments).max().orElseThrow();
            for (String form : function.sqlForms()) {
                Matcher hole = HOLE.matcher(form);
                while (hole.find()) {
                    assertThat(Integer.parseInt(hole.group(1))).as(function.name() + ": " + form).isLessThan(maxArguments);
                }
            }
        }
    }

    @Test
    void unknownNamesAreFunctionNotFound() {
        assertThat(REGISTRY.lookup("no_such_function")).isEmpty();
        assertThatThrownBy(() -> REGISTRY.require("no_such_function"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.FUNCTION_NOT_FOUND));
    }

    @Test
    void argumentsOutsideEverySignatureFailWhenTheCallIsBuilt() {
        ScalarFunction upper = REGISTRY.require("upper");
        assertThatThrownBy(() -> new ScalarFunctionExpr(upper, List.of(new LiteralExpr(1, QuiverTypes.INT32)), QuiverTypes.UTF8))
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR);
                    assertThat(e.getMessage()).contains("upper(string VARCHAR)");
                });
        assertThatThrownBy(() -> upper.resultType(ArgumentTypes.of(List.of())))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH));
    }

    @Test
    void aStrictFunctionOfTheNullConstantIsNull() {
        ScalarFunctionExpr call = REGISTRY.require("upper").call(List.of(new LiteralExpr(null, QuiverTypes.NULL)), QuiverTypes.UTF8);
        try (RootAllocator allocator = new RootAllocator(); VectorSchemaRoot batch = VectorSchemaRoot.of()) {
            batch.setRowCount(3);
            try (FieldVector result = call.evaluate(batch, allocator)) {
                assertThat(result.getValueCount()).isEqualTo(3);
                assertThat(result.getNullCount()).isEqualTo(3);
                assertThat(result.getField().getType()).isEqualTo(QuiverTypes.UTF8);
            }
        }
    }

    @Test
    void coalesceTakesItsArgumentsInTheResultType() {
        ColumnExpr small = new ColumnExpr(0, "i", QuiverTypes.INT32, true);
        ArgumentTypes args = ArgumentTypes.of(List.of(small, new LiteralExpr(2L, QuiverTypes.INT64)));
        ScalarFunction coalesce = REGISTRY.require("coalesce");
        assertThat(coalesce.resultType(args)).isEqualTo(QuiverTypes.INT64);
        ScalarFunctionExpr call = coalesce.call(List.of(small, new LiteralExpr(2L, QuiverTypes.INT64)), QuiverTypes.INT64);
        assertThat(call.args().get(0)).isEqualTo(new CastExpr(small, QuiverTypes.INT64));
        assertThat(call.nullable()).isFalse();
    }
}
