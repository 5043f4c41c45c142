package io.sqlstreams.tck.browser;

import java.nio.file.Files;
import java.nio.file.Path;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven through the machine's chromedriver, both named by system properties that the tck
 * module's browser profile sets (Debian's {@code chromium} and {@code chromium-driver}). With both given, Selenium
 * looks for no driver or browser of its own and downloads nothing.
 */
final class Chromium {
    private static final String BROWSER = "sqlstreams.tck.browser.chromium";
    private static final String DRIVER = "sqlstreams.tck.browser.chromedriver";

    private Chromium() {
    }

    static ChromeDriver start() {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(installed(DRIVER).toFile()).usingAnyFreePort().build();
        // the suite runs as root, where Chromium starts only without its sandbox
        ChromeOptions options = new ChromeOptions().setBinary(installed(BROWSER).toFile())
                .addArguments("--headless=new", "--no-sandbox", "--window-size=1400,1000");
        return new ChromeDriver(service, options);
    }

    private static Path installed(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("the system property " + property + " is not set (failsafe sets it in the"
                    + " tck module's browser profile)");
        }
        Path executable = Path.of(value);
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException(executable + " (" + property + ") is not an executable: install Debian's"
                    + " chromium and chromium-driver");
        }
        return executable;
    }
}
