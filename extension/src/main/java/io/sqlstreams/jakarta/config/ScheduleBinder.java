package io.sqlstreams.jakarta.config;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.sqlstreams.InvalidConfigurationException;
import io.sqlstreams.SchedulerConfig;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.engine.Names;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.schedule.ScheduleExpression;
import jakarta.json.bind.JsonbException;

/**
 * The schedules the configuration declares: every name found under {@code sqlstreams.schedules."<name>".} in a
 * source that lists its keys, each read property by property and checked as its registration will check it (the
 * name, the expression, the payload's class, its {@code @SchemaVersion} and its JSON, the timeout and the
 * concurrency), so that every problem is listed at deployment with its code. A schedule with a problem is left out.
 */
final class ScheduleBinder {
    private final PropertyReader reader;
    private final ProblemLog problems;
    private final PayloadCodec codec = new PayloadCodec();

    ScheduleBinder(PropertyReader reader, ProblemLog problems) {
        this.reader = reader;
        this.problems = problems;
    }

    /** The names of the schedules {@code keys} declare, sorted. */
    static Set<String> declaredNames(Iterable<String> keys) {
        Set<String> names = new TreeSet<>();
        keys.forEach(key -> PropertyKeys.parseScheduleKey(key).ifPresent(parsed -> names.add(parsed.groupId())));
        return names;
    }

    List<ScheduleSettings> bind(Set<String> names) {
        List<ScheduleSettings> bound = new ArrayList<>();
        names.forEach(name -> bind(name).ifPresent(bound::add));
        return bound;
    }

    private Optional<ScheduleSettings> bind(String name) {
        int known = problems.problems().size();
        try {
            Names.resource("schedule", name);
        } catch (SqlStreamsException invalid) {
            problems.add(new SettingsProblem(invalid.code(), PropertyKeys.scheduleKey(name, "stream"),
                    withoutCode(invalid)), List.of());
            return Optional.empty();
        }
        ScheduleDraft draft = new ScheduleDraft();
        for (PropertyDeclaration<ScheduleDraft, ?> declaration : SettingsCatalogue.scheduleProperties()) {
            reader.read(declaration, PropertyKeys.scheduleKey(name, declaration.name()), List.of())
                    .ifPresent(value -> value.bindTo(draft));
        }
        String stream = required(name, "stream", draft.stream);
        String expression = required(name, "expression", draft.expression);
        String json = required(name, "payload", draft.payload);
        Class<?> payloadType = payloadType(name, required(name, "payload-type", draft.payloadType));
        if (stream != null) {
            check(PropertyKeys.scheduleKey(name, "stream"), () -> Names.resource("stream", stream));
        }
        if (expression != null) {
            check(PropertyKeys.scheduleKey(name, "expression"), () -> ScheduleExpression.parse(
                    PropertyKeys.scheduleKey(name, "expression"), expression, Instant.now()));
        }
        SchedulerConfig config = new SchedulerConfig(draft.timeout, draft.concurrency, null);
        check(PropertyKeys.scheduleKey(name, "concurrency"), config::validate);
        Object payload = payloadType == null || json == null ? null : payload(name, payloadType, json);
        if (problems.problems().size() > known) {
            return Optional.empty();
        }
        return Optional.of(new ScheduleSettings(name, stream, expression, payload, config));
    }

    private String required(String name, String property, String value) {
        if (value == null) {
            problems.invalid(PropertyKeys.scheduleKey(name, property), "required for schedule \"" + name + "\"",
                    List.of());
        }
        return value;
    }

    private Class<?> payloadType(String name, String className) {
        if (className == null) {
            return null;
        }
        String key = PropertyKeys.scheduleKey(name, "payload-type");
        try {
            Class<?> type = Class.forName(className.strip(), false, Thread.currentThread().getContextClassLoader());
            PayloadCodec.schemaVersion(type);
            return type;
        } catch (ClassNotFoundException | LinkageError missing) {
            problems.invalid(key, "no class " + className + " in the application", List.of());
        } catch (InvalidConfigurationException badVersion) {
            problems.invalid(key, className + " " + badVersion.violations().get(0).rule(), List.of());
        } catch (SqlStreamsException unversioned) {
            problems.add(new SettingsProblem(unversioned.code(), key, withoutCode(unversioned)), List.of());
        }
        return null;
    }

    private Object payload(String name, Class<?> type, String json) {
        try {
            Object payload = codec.decode(json, type);
            codec.encode(payload);
            return payload;
        } catch (JsonbException | SqlStreamsException undecodable) {
            problems.invalid(PropertyKeys.scheduleKey(name, "payload"), "is not the JSON of a " + type.getName()
                    + ": " + undecodable.getMessage(), List.of());
            return null;
        }
    }

    /** Runs a check of the engine's; its SQL0108 violations become problems of {@code key}. */
    private void check(String key, Runnable check) {
        try {
            check.run();
        } catch (InvalidConfigurationException invalid) {
            invalid.violations().forEach(violation -> problems.invalid(key, "'" + violation.value() + "' "
                    + violation.rule(), List.of()));
        } catch (SqlStreamsException invalid) {
            problems.add(new SettingsProblem(invalid.code(), key, withoutCode(invalid)), List.of());
        }
    }

    private static String withoutCode(SqlStreamsException invalid) {
        String prefix = invalid.code().id() + " ";
        String message = invalid.getMessage();
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
