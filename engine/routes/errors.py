"""The error raised for bad input to the route functions."""

from __future__ import annotations


class RouteError(ValueError):
    """A route question that cannot be answered: an unknown token, a square off the map..."""
