"""A small stock ledger kept in PostgreSQL."""

import psycopg2

SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    name text PRIMARY KEY,
    quantity integer NOT NULL CHECK (quantity >= 0)
)
"""


def connect():
    """A connection to the database named by PGHOST, PGUSER and PGDATABASE."""
    conn = psycopg2.connect("")
    with conn, conn.cursor() as cur:
        cur.execute(SCHEMA)
    return conn


def add(conn, name, quantity):
    """Adds `quantity` of `name`, creating the item when it is new."""
    with conn, conn.cursor() as cur:
        cur.execute(
            "INSERT INTO items (name, quantity) VALUES (%s, %s) "
            "ON CONFLICT (name) DO UPDATE SET quantity = items.quantity + EXCLUDED.quantity",
            (name, quantity),
        )


def take(conn, name, quantity):
    """Takes `quantity` of `name`; refuses (ValueError) to go below zero."""
    with conn, conn.cursor() as cur:
        cur.execute(
            "UPDATE items SET quantity = quantity - %s WHERE name = %s AND quantity >= %s",
            (quantity, name, quantity),
        )
        if cur.rowcount != 1:
            raise ValueError(f"not enough {name}")


def low_stock(conn, threshold):
    """Names of the items at or below `threshold`, sorted."""
    with conn, conn.cursor() as cur:
        cur.execute("SELECT name FROM items WHERE quantity < %s ORDER BY name", (threshold,))
        return [row[0] for row in cur.fetchall()]
