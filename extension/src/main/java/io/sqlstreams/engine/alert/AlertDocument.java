package io.sqlstreams.engine.alert;

import java.time.Instant;
import java.util.Locale;

import io.sqlstreams.Alert;
import io.sqlstreams.AlertOwner;
import io.sqlstreams.AlertStatus;
import io.sqlstreams.Code;
import io.sqlstreams.SchemaVersion;
import jakarta.json.JsonObject;

/** An alert report as the payload of a {@code __system.alerts} message. */
@SchemaVersion(1)
public record AlertDocument(String name, String code, String status, String severity, String ownerKind,
                            long ownerId, String stream, String group, String message, String detail, String hint,
                            JsonObject data, Instant at) {

    public static AlertDocument of(Alert alert, JsonObject data) {
        return new AlertDocument(alert.name(), alert.code().id(), lower(alert.status()), alert.severity(),
                lower(alert.owner().kind()), alert.owner().id(), alert.owner().stream(), alert.owner().group(),
                alert.message(), alert.detail(), alert.hint(), data, alert.at());
    }

    public Alert toAlert() {
        AlertOwner owner = new AlertOwner(AlertOwner.Kind.valueOf(ownerKind.toUpperCase(Locale.ROOT)), ownerId,
                stream, group);
        return new Alert(name, Code.valueOf(code), owner, AlertStatus.valueOf(status.toUpperCase(Locale.ROOT)),
                severity, message, detail, hint, data == null ? "{}" : data.toString(), at);
    }

    private static String lower(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
