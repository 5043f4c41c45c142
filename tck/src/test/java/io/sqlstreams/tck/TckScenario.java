package io.sqlstreams.tck;

import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A scenario whose applications Arquillian deploys to the server it started once for the whole suite.
 */
@ExtendWith(ArquillianExtension.class)
public abstract class TckScenario extends ServerScenario {
}
