package io.sqlstreams.engine.alert;

import java.util.Locale;

import io.sqlstreams.AlertOwner;

/**
 * How alerts are keyed on {@code __system.alerts}: the routing key is the owner ({@code system},
 * {@code stream:<id>}, {@code consumer_group:<id>}), the message key the alert's name and owner, so an alert
 * follows its owner through a rename.
 */
public final class AlertKeys {
    private AlertKeys() {
    }

    public static String owner(AlertOwner owner) {
        return owner.kind() == AlertOwner.Kind.SYSTEM ? "system"
                : owner.kind().name().toLowerCase(Locale.ROOT) + ":" + owner.id();
    }

    public static String alert(String name, AlertOwner owner) {
        return name + "@" + owner(owner);
    }
}
