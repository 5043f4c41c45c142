package io.sqlstreams.tck.deployment.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order the application stores with JPA in the same transaction that produces its payment. */
@Entity
@Table(name = Order.TABLE)
public class Order {
    public static final String TABLE = "tck_order";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String name;

    protected Order() {
    }

    public Order(String name) {
        this.name = name;
    }

    /** The table, created by the test client before the application is deployed. */
    public static String createTable() {
        return "CREATE TABLE IF NOT EXISTS " + TABLE + " (id bigserial PRIMARY KEY, name text NOT NULL)";
    }
}
