"""Map tools: gesture handlers with their own overlay layer (see notes/DESKTOP_TOOLS.md)."""
