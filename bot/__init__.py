"""Mentat application: configuration, entry point, phase session, store, renderer."""
