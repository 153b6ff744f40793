"""Killbox desktop: the PySide6 front end. It draws what the engine computes."""
