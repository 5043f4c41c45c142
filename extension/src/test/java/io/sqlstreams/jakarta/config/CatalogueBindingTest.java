package io.sqlstreams.jakarta.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.ConsumeOptions;
import io.sqlstreams.ConsumerConfig;
import io.sqlstreams.MessageOptions;
import io.sqlstreams.RetryPolicy;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every catalogue property, bound through real MicroProfile Config, lands in the field its name mirrors. */
class CatalogueBindingTest {
    private static final GroupAddress CHARGE_CARDS = new GroupAddress("payments.requested", "charge-cards");
    private static final GroupSettings UNCONFIGURED = bind(Map.of());

    static Stream<String> groupPropertyNames() {
        return SettingsCatalogue.groupProperties().stream().map(PropertyDeclaration::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupPropertyNames")
    void aGroupKeySetsTheFieldItsNameMirrorsAndNoOther(String name) {
        assertSetsOnlyItsField(name, PropertyKeys.groupKey("charge-cards", name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupPropertyNames")
    void aDefaultsKeySetsTheSameField(String name) {
        assertSetsOnlyItsField(name, PropertyKeys.defaultsKey(name));
    }

    @Test
    void withoutConfigurationEveryGroupRunsOnTheLibraryDefaults() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of()), List.of(CHARGE_CARDS));

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.global()).isEqualTo(new GlobalSettings("jdbc/sqlstreams", ClientConfig.DEFAULT_SCHEMA,
                true, true, false, "/sqlstreams", true));
        assertThat(resolved.groups()).containsExactly(Map.entry(CHARGE_CARDS, new GroupSettings(CHARGE_CARDS,
                ConsumerConfig.defaults(), ConsumeOptions.defaults(), true, "java:comp/DefaultManagedExecutorService")));
    }

    @Test
    void theGlobalPropertiesBind() {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(Map.of(
                "sqlstreams.datasource", "jdbc/payments", "sqlstreams.schema", "payments_streams",
                "sqlstreams.manager.enabled", "false", "sqlstreams.wakeup.enabled", "false",
                "sqlstreams.console.enabled", "true", "sqlstreams.console.path", "/ops/streams_1",
                "sqlstreams.telemetry.enabled", "false")), List.of());

        assertThat(resolved.problems()).isEmpty();
        assertThat(resolved.global()).isEqualTo(new GlobalSettings("jdbc/payments", "payments_streams", false, false,
                true, "/ops/streams_1", false));
    }

    @Test
    void everyFieldOfTheDeclarationTheOptionsAndTheRuntimeSettingsHasAProperty() {
        Set<String> fields = new TreeSet<>();
        fields.addAll(fieldPaths(ConsumerConfig.class, "declaration."));
        fields.addAll(fieldPaths(ConsumeOptions.class, "options."));
        fields.addAll(List.of("enabled", "executorJndiName"));

        Set<String> properties = SettingsCatalogue.groupProperties().stream()
                .map(property -> switch (property.layer()) {
                    case GROUP_DECLARATION -> "declaration." + javaPath(property.name());
                    case SESSION_OPTION -> "options." + javaPath(property.name());
                    default -> javaPath(property.name());
                })
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(properties).isEqualTo(fields);
    }

    @Test
    void noTwoPropertiesShareAnEnvironmentVariableSpelling() {
        Map<String, List<String>> byVariable = groupPropertyNames().collect(Collectors.groupingBy(
                PropertyKeys::environmentVariable));

        assertThat(byVariable.values()).allSatisfy(names -> assertThat(names).hasSize(1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupPropertyNames")
    void aDefaultShownAsAValueOrAsNoneIsWhatTheLibraryResolves(String name) {
        PropertyDeclaration<GroupDraft, ?> property = SettingsCatalogue.groupProperty(name).orElseThrow();
        if (property.defaultValue().startsWith("none")) {
            assertThat(libraryResolved(property)).isNull();
        } else {
            parsed(property.kind(), property.defaultValue().replace("`", ""))
                    .ifPresent(value -> assertThat(value).isEqualTo(libraryResolved(property)));
        }
    }

    private static void assertSetsOnlyItsField(String name, String key) {
        PropertyDeclaration<GroupDraft, ?> property = SettingsCatalogue.groupProperty(name).orElseThrow();
        Samples sample = Samples.forType(RecordPaths.type(property), RecordPaths.read(UNCONFIGURED, property));

        GroupSettings settings = bind(Map.of(key, sample.text()));

        assertThat(RecordPaths.read(settings, property)).as(key).isEqualTo(sample.value());
        for (PropertyDeclaration<GroupDraft, ?> other : SettingsCatalogue.groupProperties()) {
            if (other != property) {
                assertThat(RecordPaths.read(settings, other)).as(other.name() + " after setting " + key)
                        .isEqualTo(RecordPaths.read(UNCONFIGURED, other));
            }
        }
    }

    private static GroupSettings bind(Map<String, String> properties) {
        ResolvedSettings resolved = SettingsResolver.resolve(Configs.application(properties), List.of(CHARGE_CARDS));
        assertThat(resolved.problems()).as("problems").isEmpty();
        return resolved.groups().get(CHARGE_CARDS);
    }

    /**
     * The field paths a declaration or options record offers to configuration: all but a message's
     * scheduledAt and concurrency (see {@link SettingsCatalogue} for why).
     */
    private static Set<String> fieldPaths(Class<?> type, String prefix) {
        Set<String> paths = new TreeSet<>();
        for (RecordComponent component : type.getRecordComponents()) {
            String path = prefix + component.getName();
            if (type == MessageOptions.class && Set.of("scheduledAt", "concurrency").contains(component.getName())) {
                continue;
            }
            boolean nested = component.getType() == MessageOptions.class || component.getType() == RetryPolicy.class;
            paths.addAll(nested ? fieldPaths(component.getType(), path + ".") : Set.of(path));
        }
        return paths;
    }

    private static String javaPath(String propertyName) {
        return Arrays.stream(propertyName.split("\\.")).map(RecordPaths::javaName).collect(Collectors.joining("."));
    }

    private static Optional<Object> parsed(ValueKind<?> kind, String text) {
        try {
            return Optional.of(kind.parse(text));
        } catch (RejectedValueException derivedOrUnset) {
            return Optional.empty();
        }
    }

    /**
     * What the API resolves the property to when nothing is configured: its {@code resolvedX()} method when
     * the record has one (walking the rest of the path on the result), else the unconfigured field.
     */
    private static Object libraryResolved(PropertyDeclaration<GroupDraft, ?> property) {
        Object root = switch (property.layer()) {
            case GROUP_DECLARATION -> ConsumerConfig.defaults();
            case SESSION_OPTION -> ConsumeOptions.defaults();
            default -> null;
        };
        List<String> path = Arrays.stream(property.name().split("\\.")).map(RecordPaths::javaName).toList();
        Optional<Method> resolver = root == null ? Optional.empty() : Arrays.stream(root.getClass().getMethods())
                .filter(method -> method.getParameterCount() == 0)
                .filter(method -> method.getName().equalsIgnoreCase("resolved" + path.get(0)))
                .findFirst();
        if (resolver.isEmpty()) {
            return RecordPaths.read(UNCONFIGURED, property);
        }
        try {
            Object value = resolver.get().invoke(root);
            for (String field : path.subList(1, path.size())) {
                value = value.getClass().getMethod(field).invoke(value);
            }
            return value;
        } catch (ReflectiveOperationException unreadable) {
            throw new AssertionError(unreadable);
        }
    }
}
