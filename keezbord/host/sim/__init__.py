"""Simulated hands at the table: engine moves rendered as the switch events a person makes."""
