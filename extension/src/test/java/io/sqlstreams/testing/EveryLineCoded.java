package io.sqlstreams.testing;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test during which a {@link RecordingLogger} received a line without its code (or at another level than
 * its code's). Registered for every test of this module through {@code META-INF/services}; a line a background
 * thread writes after its test ended fails the next test, naming the line.
 */
public final class EveryLineCoded implements AfterEachCallback {
    @Override
    public void afterEach(ExtensionContext context) {
        List<RecordingLogger.Line> violations = RecordingLogger.takeViolations();
        if (!violations.isEmpty()) {
            throw new AssertionError("every log line must start with its code and go out at the code's level;"
                    + " these did not:\n" + violations.stream().map(line -> "  " + line)
                    .collect(Collectors.joining("\n")));
        }
    }
}
