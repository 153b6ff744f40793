"""Small dialogs the GM answers while running a fight or importing a map."""
