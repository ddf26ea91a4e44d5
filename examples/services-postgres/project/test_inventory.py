import unittest

import inventory


class InventoryTest(unittest.TestCase):
    def setUp(self):
        self.conn = inventory.connect()
        with self.conn, self.conn.cursor() as cur:
            cur.execute("TRUNCATE items")

    def tearDown(self):
        self.conn.close()

    def test_add_accumulates(self):
        inventory.add(self.conn, "bolt", 3)
        inventory.add(self.conn, "bolt", 4)
        with self.conn.cursor() as cur:
            cur.execute("SELECT quantity FROM items WHERE name = 'bolt'")
            self.assertEqual(cur.fetchone()[0], 7)

    def test_take_refuses_to_go_below_zero(self):
        inventory.add(self.conn, "nut", 1)
        with self.assertRaises(ValueError):
            inventory.take(self.conn, "nut", 2)

    def test_low_stock_includes_the_threshold(self):
        inventory.add(self.conn, "washer", 5)
        inventory.add(self.conn, "screw", 6)
        inventory.add(self.conn, "gear", 2)
        self.assertEqual(inventory.low_stock(self.conn, 5), ["gear", "washer"])


if __name__ == "__main__":
    unittest.main()
