"""Killbox engine: the rules, geometry, routes, turns and files, with no Qt in sight."""
