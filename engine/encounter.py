"""The encounter state: one immutable value holding the map, the tokens and the rule system.

The turn engine keeps a history of these values, which is what makes undo exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.battlemap import BattleMap
from engine.fog import ManualFog
from engine.grid import GridScale, Square
from engine.tokens import Token
from engine.turns.combat import CombatState


@dataclass(frozen=True, slots=True)
class EncounterState:
    """``description`` says what the place is (shown to all); ``briefing`` is the GM's own
    text about the fight (who wants what, what happens when), never shown to players."""

    name: str
    system: str
    scale: GridScale
    battlemap: BattleMap
    tokens: tuple[Token, ...] = ()
    description: str = ""
    #: Round, initiative order, budgets, readied actions, dice position and log (engine.turns).
    combat: CombatState = CombatState()  # noqa: RUF009 (frozen: one shared default is safe)
    briefing: str = ""
    #: Squares the GM revealed to or hid from the players by hand (engine.fog).
    fog: ManualFog = ManualFog()  # noqa: RUF009 (frozen: one shared default is safe)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        occupied: dict[Square, str] = {}
        for token in self.tokens:
            if token.id in seen:
                raise ValueError(f"two tokens share the id {token.id!r}")
            seen.add(token.id)
            for square in token.squares:
                if not self.battlemap.in_bounds(square):
                    raise ValueError(
                        f"token {token.id!r} covers square {square}, outside the "
                        f"{self.battlemap.width}x{self.battlemap.height} map"
                    )
                if square in occupied:
                    raise ValueError(
                        f"tokens {occupied[square]!r} and {token.id!r} both stand on {square}"
                    )
                occupied[square] = token.id

    def token(self, token_id: str) -> Token:
        for token in self.tokens:
            if token.id == token_id:
                return token
        raise KeyError(f"no token {token_id!r} in this encounter")

    def token_at(self, square: Square) -> Token | None:
        for token in self.tokens:
            if square in token.squares:
                return token
        return None

    def occupancy(self) -> dict[Square, Token]:
        return {square: token for token in self.tokens for square in token.squares}

    def others(self, token_id: str) -> Iterator[Token]:
        return (t for t in self.tokens if t.id != token_id)

    def with_token(self, token: Token) -> EncounterState:
        """A copy with one token replaced (matched by id) or added."""
        if any(t.id == token.id for t in self.tokens):
            tokens = tuple(token if t.id == token.id else t for t in self.tokens)
        else:
            tokens = (*self.tokens, token)
        return replace(self, tokens=tokens)

    def without_token(self, token_id: str) -> EncounterState:
        self.token(token_id)
        return replace(self, tokens=tuple(t for t in self.tokens if t.id != token_id))
