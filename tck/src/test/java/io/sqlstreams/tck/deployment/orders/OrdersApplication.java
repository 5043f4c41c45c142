package io.sqlstreams.tck.deployment.orders;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The order endpoint's root. */
@ApplicationPath("/api")
public class OrdersApplication extends Application {
}
