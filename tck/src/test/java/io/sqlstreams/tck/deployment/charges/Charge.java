package io.sqlstreams.tck.deployment.charges;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A charge a transactional observer stores with JPA, one per message: the primary key refuses a second row for the
 * same message, and {@code attempt} says which run of the message committed it.
 */
@Entity
@Table(name = Charge.TABLE)
public class Charge {
    public static final String TABLE = "tck_charge";

    @Id
    private Long messageId;

    private String paymentOrder;

    private int attempt;

    protected Charge() {
    }

    public Charge(long messageId, String paymentOrder, int attempt) {
        this.messageId = messageId;
        this.paymentOrder = paymentOrder;
        this.attempt = attempt;
    }

    /** The table, created by the test client before the application is deployed. */
    public static String createTable() {
        return "CREATE TABLE IF NOT EXISTS " + TABLE + " (messageid bigint PRIMARY KEY, paymentorder text NOT NULL,"
                + " attempt integer NOT NULL)";
    }
}
