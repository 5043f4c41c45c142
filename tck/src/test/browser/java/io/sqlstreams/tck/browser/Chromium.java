package io.sqlstreams.tck.browser;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import io.sqlstreams.testing.OptionalTool;

/**
 * A headless Chromium driven through the machine's chromedriver, both found as {@link OptionalTool}s (the tck
 * module's browser profile names Debian's {@code chromium} and {@code chromium-driver}). With both given, Selenium
 * looks for no driver or browser of its own and downloads nothing.
 */
final class Chromium {
    private Chromium() {
    }

    static ChromeDriver start() {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(OptionalTool.CHROMEDRIVER.path().toFile()).usingAnyFreePort().build();
        // the suite runs as root, where Chromium starts only without its sandbox
        ChromeOptions options = new ChromeOptions().setBinary(OptionalTool.CHROMIUM.path().toFile())
                .addArguments("--headless=new", "--no-sandbox", "--window-size=1400,1000");
        return new ChromeDriver(service, options);
    }
}
