"""The map as a QGraphicsScene: items built from an EncounterState, and overlays."""
