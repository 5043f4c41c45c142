package io.sqlstreams.tck.browser;

/** {@link ConsoleBrowserScenario} on Open Liberty. */
class ConsoleBrowserLibertyIT extends ConsoleBrowserScenario {
}
