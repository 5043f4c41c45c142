package io.sqlstreams;

/** Which delivery outcomes a stream records in its {@code delivery_log} audit table. */
public enum DeliveryLogMode implements WireNamed {
    /** Nothing is recorded (the table still exists). */
    OFF("off"),
    /** Every outcome except success: failures, delays, deferrals, supersessions, expiries, kills. The default. */
    FAILURES("failures"),
    /** Every outcome, successes included: one more write per delivered message. */
    ALL("all");

    private final String wireName;

    DeliveryLogMode(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** @throws InvalidConfigurationException (SQL0108) for an unknown spelling */
    public static DeliveryLogMode fromWireName(String text) {
        return WireNamed.parse(DeliveryLogMode.class, "deliveryLogMode", text);
    }
}
