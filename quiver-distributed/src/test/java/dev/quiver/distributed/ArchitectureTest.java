package dev.quiver.distributed;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure of quiver-distributed (docs/architecture.md, "Packages of
 * quiver-distributed"), checked on its compiled classes: no two packages depend on each other,
 * directly or through others, and each layer uses only the layers below it. Bottom-up:
 * {@code compression} → {@code config} (the {@code distributed.*} settings, which every layer may read) → {@code protocol} (what coordinator and workers say to each other) → {@code operator} (the
 * distributed plan nodes) → {@code codec} (plan serialization) and {@code plan} (stages and task
 * counts) → {@code client} (reaching workers) → {@code worker} (the server); {@code plan} →
 * {@code aqe} (costs and samples) → {@code event} (the stage-event SPI) → {@code planner} (the
 * stage-planning loop) → {@code handler} (the reference handler) and {@code coordinator} (running
 * queries) → {@code explain}.
 */
class ArchitectureTest {
    private static final String BASE = "dev.quiver.distributed";
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(BASE);
    }

    @Test
    void everyPackageIsSeen() {
        // the rules below only mean something if the import found the packages they name
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).filter(name -> name.startsWith(BASE + "."))
                .map(name -> name.substring(BASE.length() + 1)).collect(Collectors.toSet());
        assertThat(packages).containsExactlyInAnyOrder("config", "protocol", "operator", "codec", "codec.spi", "compression", "client", "worker", "plan",
                "aqe", "event", "planner", "handler", "coordinator", "coordinator.spi", "coordinator.discovery", "explain");
    }

    @Test
    void noPackageCycles() {
        // every package is a slice of its own, sub-packages too: codec.spi may not use codec back
        slices().matching(BASE + ".(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void layersUseOnlyTheLayersBelow() {
        Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("protocol").definedBy(BASE + ".protocol..")
                .layer("compression").definedBy(BASE + ".compression..")
                .layer("config").definedBy(BASE + ".config..")
                .layer("operator").definedBy(BASE + ".operator..")
                .layer("codec").definedBy(BASE + ".codec..")
                .layer("plan").definedBy(BASE + ".plan..")
                .layer("client").definedBy(BASE + ".client..")
                .layer("worker").definedBy(BASE + ".worker..")
                .layer("aqe").definedBy(BASE + ".aqe..")
                .layer("event").definedBy(BASE + ".event..")
                .layer("planner").definedBy(BASE + ".planner..")
                .layer("handler").definedBy(BASE + ".handler..")
                .layer("coordinator").definedBy(BASE + ".coordinator..")
                .layer("explain").definedBy(BASE + ".explain..")
                .whereLayer("explain").mayNotBeAccessedByAnyLayer()
                .whereLayer("coordinator").mayOnlyBeAccessedByLayers("explain")
                .whereLayer("handler").mayNotBeAccessedByAnyLayer()
                .whereLayer("planner").mayOnlyBeAccessedByLayers("coordinator")
                .whereLayer("event").mayOnlyBeAccessedByLayers("planner", "handler", "coordinator", "explain")
                .whereLayer("aqe").mayOnlyBeAccessedByLayers("event", "planner", "handler", "coordinator", "explain")
                .whereLayer("worker").mayNotBeAccessedByAnyLayer()
                .whereLayer("client").mayOnlyBeAccessedByLayers("worker", "coordinator", "explain")
                .whereLayer("codec").mayOnlyBeAccessedByLayers("client", "worker", "coordinator")
                .whereLayer("plan").mayOnlyBeAccessedByLayers("aqe", "event", "planner", "handler", "coordinator", "explain")
                .whereLayer("operator").mayOnlyBeAccessedByLayers("codec", "plan", "client", "worker", "aqe", "event", "planner", "handler",
                        "coordinator", "explain")
                .whereLayer("compression").mayOnlyBeAccessedByLayers("config", "worker")
                .check(classes);
    }
}
