"""Encounter preparation on the map: the map tools, the token editor, the Map menu.

Every edit is an engine command (checked, undoable, autosaved); nothing here changes the
state itself, and nothing here knows a rule system.
"""
