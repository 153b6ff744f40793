"""The turn engine: encounter sessions with undo and redo, rounds, turns and the combat log.

Import the session from ``engine.turns.session`` (or the public API in ``engine``); this
package file stays empty so that ``engine.encounter`` can import ``engine.turns.combat``.
"""
