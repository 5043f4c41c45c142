package io.sqlstreams.jakarta.config;

import java.util.function.BiConsumer;

/**
 * One configuration property, declared once: the catalogue, the resolver and the reference table all
 * read it from here.
 *
 * @param name         the property name: for a group property the part after the group or {@code defaults}
 *                     segment ({@code message.timeout}); for a global one the whole key
 * @param layer        who sets it
 * @param kind         the accepted texts
 * @param defaultValue the default as the reference table shows it
 * @param description  what it decides
 * @param binder       puts a parsed value into the draft being built ({@link GroupDraft} or {@link GlobalDraft})
 * @param <D>          the draft type
 * @param <T>          the value type
 */
record PropertyDeclaration<D, T>(String name, Layer layer, ValueKind<T> kind, String defaultValue,
                                        String description, BiConsumer<D, T> binder) {
}
