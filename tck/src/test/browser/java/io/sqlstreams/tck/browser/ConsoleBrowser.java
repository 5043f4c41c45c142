package io.sqlstreams.tck.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import org.openqa.selenium.By;
import org.openqa.selenium.HasAuthentication;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.UsernameAndPassword;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.sqlstreams.tck.ServerCoordinates;
import io.sqlstreams.tck.ServerScenario;

/**
 * The operator console of one deployment in a headless Chromium, as one user or as nobody. The console asks for HTTP
 * Basic credentials; the browser answers every challenge, those of the page's own API calls included, through the
 * DevTools protocol (credentials in the address would reach the page but not its fetch calls).
 */
final class ConsoleBrowser implements AutoCloseable {
    private static final int PAGE_TEXT_SHOWN = 1500;

    private final ChromeDriver driver;
    private final String console;
    private final Screenshots screenshots;

    private ConsoleBrowser(ChromeDriver driver, String console, Screenshots screenshots) {
        this.driver = driver;
        this.console = console;
        this.screenshots = screenshots;
    }

    static ConsoleBrowser as(ServerCoordinates server, String application, String user, String password,
                             Screenshots screenshots) {
        ConsoleBrowser browser = anonymous(server, application, screenshots);
        ((HasAuthentication) browser.driver).register(UsernameAndPassword.of(user, password));
        return browser;
    }

    static ConsoleBrowser anonymous(ServerCoordinates server, String application, Screenshots screenshots) {
        return new ConsoleBrowser(Chromium.start(), server.http("/" + application + "/sqlstreams/").toString(),
                screenshots);
    }

    /** Opens the console's page at a view: {@code ""} the overview, {@code "<stream>/<group>"} a group. */
    void openView(String route) {
        driver.get(console + "#/" + route);
    }

    /** Opens a file of the console as the address: {@code ""} the page, {@code "api/…"} an endpoint. */
    void openFile(String file) {
        driver.get(console + file);
    }

    /** The HTTP status of the document last opened. */
    int status() {
        return ((Number) driver.executeScript(
                "return performance.getEntriesByType('navigation')[0].responseStatus")).intValue();
    }

    /**
     * POSTs to {@code api/<path>} from the page, as its own actions do: with the session's CSRF token in the header.
     * Returns the HTTP status.
     */
    int post(String path) {
        Object status = driver.executeAsyncScript("""
                const path = arguments[0], done = arguments[arguments.length - 1];
                fetch("api/session").then(answer => answer.json())
                    .then(session => fetch("api/" + path,
                        { method: "POST", headers: { "X-SQLStreams-CSRF": session.csrf } }))
                    .then(answer => done(answer.status), failure => done(String(failure)));
                """, path);
        if (!(status instanceof Number number)) {
            throw new AssertionError("the page could not POST to api/" + path + ": " + status);
        }
        return number.intValue();
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    String text(String css) {
        return find(css).getText();
    }

    String source() {
        return driver.getPageSource();
    }

    void click(String css) {
        find(css).click();
    }

    /**
     * Waits until {@code condition} holds, re-checking while the page re-renders; fails with {@code expectation}
     * and the text the page shows then.
     */
    void waitUntil(String expectation, Supplier<Boolean> condition) {
        new WebDriverWait(driver, ServerScenario.WAIT).ignoring(StaleElementReferenceException.class)
                .withMessage(() -> expectation + "; " + driver.getCurrentUrl() + " shows:\n" + visibleText())
                .until(ignored -> condition.get());
    }

    private String visibleText() {
        String text = driver.findElement(By.tagName("body")).getText();
        return text.length() <= PAGE_TEXT_SHOWN ? text : text.substring(0, PAGE_TEXT_SHOWN) + "…";
    }

    /** Saves what the window shows as the next screenshot. */
    void screenshot(String name) {
        Path target = screenshots.next(name);
        try {
            Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the screenshot " + target, e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
