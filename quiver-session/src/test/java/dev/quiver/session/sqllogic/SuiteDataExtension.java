package dev.quiver.session.sqllogic;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test methods the {@link SuiteData} of the test run: written on first use, kept in the
 * root context's store (so the suite's classes share one copy) and deleted when the run ends.
 */
final class SuiteDataExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SuiteDataExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SuiteData.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SuiteData.class, key -> SuiteData.create(), SuiteData.class);
    }
}
