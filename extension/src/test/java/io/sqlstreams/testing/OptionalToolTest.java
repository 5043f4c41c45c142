package io.sqlstreams.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionalToolTest {
    private static final String SETTING = "sqlstreams.tck.browser.chromedriver";

    @TempDir
    Path directory;

    @AfterEach
    void forgetSetting() {
        System.clearProperty(SETTING);
    }

    @Test
    void anExecutableAtTheNamedPathIsTheTool() throws Exception {
        Path driver = Files.createFile(directory.resolve("chromedriver"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        System.setProperty(SETTING, driver.toString());

        assertThat(OptionalTool.CHROMEDRIVER.isInstalled()).isTrue();
        assertThat(OptionalTool.CHROMEDRIVER.path()).isEqualTo(driver);
    }

    @Test
    void aMissingOrNonExecutableToolIsNamedWithItsPackageAndSetting() throws Exception {
        Path notExecutable = Files.createFile(directory.resolve("chromedriver"));
        for (Path path : new Path[] {directory.resolve("missing"), notExecutable}) {
            System.setProperty(SETTING, path.toString());

            assertThat(OptionalTool.CHROMEDRIVER.isInstalled()).isFalse();
            assertThatThrownBy(OptionalTool.CHROMEDRIVER::path).isInstanceOf(IllegalStateException.class)
                    .hasMessage("no chromedriver at " + path + " (install Debian's chromium-driver: apt-get install"
                            + " chromium-driver; or name another path in " + SETTING + ")");
        }
    }
}
