package io.sqlstreams.jakarta.config;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Finds the record field a group property mirrors by reflection, independently of the catalogue's
 * binders: {@code message-min.retry.base-delay} is {@code declaration().messageMin().retry().baseDelay()}
 * of {@link GroupSettings}.
 */
final class RecordPaths {
    /** The one property whose field name does not mirror it. */
    private static final Map<String, String> RENAMED = Map.of("executor", "executorJndiName");
    private static final Pattern DASH_LETTER = Pattern.compile("-([a-z])");

    private RecordPaths() {
    }

    /** The value of the property's field; null when it or a record on the way is unset. */
    static Object read(GroupSettings settings, PropertyDeclaration<?, ?> property) {
        Object current = settings;
        for (RecordComponent component : components(property)) {
            if (current == null) {
                return null;
            }
            try {
                current = component.getAccessor().invoke(current);
            } catch (ReflectiveOperationException unreadable) {
                throw new AssertionError(unreadable);
            }
        }
        return current;
    }

    /** The declared Java type of the property's field. */
    static Class<?> type(PropertyDeclaration<?, ?> property) {
        List<RecordComponent> path = components(property);
        return path.get(path.size() - 1).getType();
    }

    /** {@code message-min} → {@code messageMin}. */
    static String javaName(String kebab) {
        return DASH_LETTER.matcher(RENAMED.getOrDefault(kebab, kebab))
                .replaceAll(match -> match.group(1).toUpperCase(Locale.ROOT));
    }

    private static List<RecordComponent> components(PropertyDeclaration<?, ?> property) {
        List<String> names = new ArrayList<>();
        switch (property.layer()) {
            case GROUP_DECLARATION -> names.add("declaration");
            case SESSION_OPTION -> names.add("options");
            case GROUP_RUNTIME -> { }
            case GLOBAL -> throw new IllegalArgumentException(property.name() + " is not a group property");
        }
        Arrays.stream(property.name().split("\\.")).map(RecordPaths::javaName).forEach(names::add);
        List<RecordComponent> path = new ArrayList<>();
        Class<?> type = GroupSettings.class;
        for (String name : names) {
            RecordComponent component = component(type, name);
            path.add(component);
            type = component.getType();
        }
        return path;
    }

    private static RecordComponent component(Class<?> type, String name) {
        if (!type.isRecord()) {
            throw new AssertionError(type.getSimpleName() + " is not a record, so it has no field " + name);
        }
        return Arrays.stream(type.getRecordComponents())
                .filter(component -> component.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(type.getSimpleName() + " has no field " + name));
    }
}
