"""One module per bundled encounter; each has ``build() -> Scene``."""
