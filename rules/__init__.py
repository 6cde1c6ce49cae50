"""Mentat rules engine for the Dune Shipment & Movement phase (standard library only)."""
