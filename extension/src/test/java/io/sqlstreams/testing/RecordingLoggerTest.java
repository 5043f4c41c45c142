package io.sqlstreams.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import org.junit.jupiter.api.Test;

class RecordingLoggerTest {
    private final RecordingLogger logger = new RecordingLogger();

    @Test
    void aLineWithoutACatalogueCodeIsAViolation() {
        logger.log(Level.INFO, "consumer starting: somewhere");
        logger.log(Level.INFO, "SQL9999 not in the catalogue");
        logger.log(Level.INFO, "SQL0115consumer starting without the space");

        assertThat(RecordingLogger.takeViolations()).extracting(RecordingLogger.Line::text).containsExactly(
                "consumer starting: somewhere", "SQL9999 not in the catalogue",
                "SQL0115consumer starting without the space");
        assertThat(RecordingLogger.takeViolations()).as("taken once").isEmpty();
    }

    @Test
    void aLineAtAnotherLevelThanItsCodesIsAViolation() {
        logger.log(Level.WARNING, "SQL0115 consumer starting at the wrong level");
        logger.log(Level.DEBUG, "SQL0059 a warning event at DEBUG");

        assertThat(RecordingLogger.takeViolations()).hasSize(2);
    }

    @Test
    void codedLinesAtTheirLevelPass() {
        logger.log(Level.INFO, "SQL0115 consumer starting");
        logger.log(Level.DEBUG, "SQL0129 retrying");
        logger.log(Level.ERROR, "SQL0113 session failed and stops");
        logger.log(Level.DEBUG, "SQL0003 lease of a range was taken over");

        assertThat(RecordingLogger.takeViolations()).isEmpty();
        assertThat(logger.lines()).hasSize(4);
    }
}
