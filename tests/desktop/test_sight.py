"""PartySight: the kept answers equal asking afresh (party_sees) after every kind of change."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.sight import PartySight, party_sees
from engine.battlemap import PortalState
from engine.grid import Square
from engine.tokens import Side
from tests.desktop.sample import HEIGHT, WIDTH, sample_state

STEPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("move"),
            st.integers(0, 9),
            st.integers(1, WIDTH - 2),
            st.integers(1, HEIGHT - 2),
        ),
        st.tuples(st.just("door"), st.integers(0, 9), st.booleans(), st.just(0)),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_kept_answers_equal_asking_afresh(steps: list[tuple[str, int, object, int]]) -> None:
    state = sample_state()
    sight = PartySight()
    first = sight.update(state)
    assert first is not None and first.squares == party_sees(state)
    for kind, number, a, b in steps:
        if kind == "move":
            token = state.tokens[number % len(state.tokens)]
            target = Square(int(a), b)  # type: ignore[call-overload]
            try:
                state = state.with_token(token.moved_to(target))
            except ValueError:  # another token stands there, or the map ends
                continue
        else:
            portal = state.battlemap.portals[number % len(state.battlemap.portals)]
            wanted = PortalState.OPEN if a else PortalState.CLOSED
            state = replace(state, battlemap=state.battlemap.with_portal_state(portal.id, wanted))
        view = sight.update(state)
        assert view is not None
        assert view.squares == party_sees(state)
        party = [t for t in state.tokens if t.side is Side.PARTY]
        assert len(view.views) == len(party)
