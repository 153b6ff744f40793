"""The panels around the map: initiative tracker, action palette, token inspector, combat log."""
