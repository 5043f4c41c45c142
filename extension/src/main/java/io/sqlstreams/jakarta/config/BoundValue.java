package io.sqlstreams.jakarta.config;

/** A parsed property value, remembering the key it came from. */
record BoundValue<D, T>(PropertyDeclaration<D, T> declaration, String key, T value) {

    void bindTo(D draft) {
        declaration.binder().accept(draft, value);
    }
}
