package io.sqlstreams.tck.browser;

/** {@link ConsoleBrowserScenario} on Payara Micro. */
class ConsoleBrowserPayaraIT extends ConsoleBrowserScenario {
}
