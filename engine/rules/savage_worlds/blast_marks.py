"""Where a missed blast came down, kept for the map (``RuleSystem.lasting_overlay``).

A blast that deviates lands away from where the preview showed it; the resolution records
the landing in the fight state (``combat_state.BlastLanding``), and the map marks the aim
square, the landing square and the template where it fell, in the context colour, until
the thrower's next turn begins (our choice: long enough for the table to see what the
grenade did, gone before the thrower throws again). Undo takes the mark back with the throw.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.overlay import Overlay, OverlayArea, SquareMark, Tone
from engine.rules.savage_worlds import combat_state, templates
from engine.rules.savage_worlds.combat_state import BlastLanding
from engine.turns.combat import Phase


def record(state: EncounterState, landing: BlastLanding) -> EncounterState:
    """The state with ``landing`` marked on the map."""
    return combat_state.with_landings(state, (*combat_state.landings_of(state), landing))


def clear_for(state: EncounterState, token_id: str) -> EncounterState:
    """The state without the marks of ``token_id``'s blasts (its next turn has begun)."""
    kept = combat_state.landings_of(state)
    left = tuple(landing for landing in kept if landing.thrower != token_id)
    return state if left == kept else combat_state.with_landings(state, left)


def overlay(state: EncounterState) -> Overlay:
    """The marks of every blast that came down off its aim, while the fight goes on."""
    if state.combat.phase is not Phase.ROUND:
        return Overlay()
    marks: list[SquareMark] = []
    areas: list[OverlayArea] = []
    for landing in combat_state.landings_of(state):
        thrower = _name(state, landing.thrower)
        fell = templates.blast(state, landing.landed.centre, landing.template)
        label = f"{thrower}'s {landing.weapon} came down here"
        areas.append(OverlayArea(label, fell.squares, Tone.INFO, "", fell.shape))
        if landing.landed == landing.aimed:  # its flight was stopped at once
            marks.append(SquareMark(landing.landed, "fell", Tone.INFO,
                                    f"{label}: it missed, but its deviation was stopped at "
                                    "once"))
            continue
        marks.append(SquareMark(landing.aimed, "aim", Tone.INFO,
                                f"{thrower}'s {landing.weapon} was aimed here and deviated "
                                f"to {landing.landed}"))
        marks.append(SquareMark(landing.landed, "fell", Tone.INFO,
                                f"{label} (aimed at {landing.aimed})"))
    return Overlay(areas=tuple(areas), marks=tuple(marks))


def _name(state: EncounterState, token_id: str) -> str:
    try:
        return state.token(token_id).name
    except KeyError:  # the GM removed the thrower since
        return "a removed token"
