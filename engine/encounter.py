"""The encounter state: one immutable value holding the map, the tokens and the rule system.

The turn engine keeps a history of these values, which is what makes undo exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, replace

from pydantic import ConfigDict

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

    # A key the model does not know (a typo such as "sqaure") is refused, not dropped; the
    # setting reaches every dataclass inside the state, so a file is checked in one pass.
    __pydantic_config__ = ConfigDict(extra="forbid")

    def __post_init__(self) -> None:
        # Only ids and footprints are checked here: with_token relies on that to skip the
        # check when a token keeps its id and footprint.
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
        index = next((i for i, t in enumerate(self.tokens) if t.id == token.id), None)
        if index is None:
            return replace(self, tokens=(*self.tokens, token))
        old = self.tokens[index]
        tokens = (*self.tokens[:index], token, *self.tokens[index + 1:])
        if (old.square, old.size) == (token.square, token.size):
            # Same id, same squares: what __post_init__ checks still holds. Checking every
            # square of every token again made a condition on each of 1,000 tokens
            # (a fight's start) quadratic: 1.5 s.
            return self._unchecked_copy(tokens)
        return replace(self, tokens=tokens)

    def _unchecked_copy(self, tokens: tuple[Token, ...]) -> EncounterState:
        copy = object.__new__(EncounterState)
        for field in fields(self):
            value = tokens if field.name == "tokens" else getattr(self, field.name)
            object.__setattr__(copy, field.name, value)
        return copy

    def without_token(self, token_id: str) -> EncounterState:
        self.token(token_id)
        return replace(self, tokens=tuple(t for t in self.tokens if t.id != token_id))
