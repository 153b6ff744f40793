"""Spycraft Strafe as its description says: 3 shots a square, opponents only, +2 Defense a
target in chain order, 9+ shots, at most a third of them (and 10) in squares, in range."""

from __future__ import annotations

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.overlay import Modifier, Role, Tone
from engine.rules.spycraft.strafe import plan_strafe, strafe_overlay
from engine.tokens import Side, Token, Weapon


def sweep(ammo: int = 30, range_increment: float = 20.0) -> EncounterState:
    gun = Weapon(
        "SMG", range_increment=range_increment, ammo=ammo, capacity=30, modes=("full auto",)
    )
    shooter = Token("me", "Shooter", Side.PARTY, Square(0, 5), weapons=(gun,))
    thug = Token("thug", "Thug", Side.ENEMY, Square(6, 4))
    pal = Token("pal", "Pal", Side.ALLY, Square(6, 5))  # a friend between two opponents
    brute = Token("brute", "Brute", Side.ENEMY, Square(6, 6), size=2)  # (6,6) (7,6) (6,7) (7,7)
    return EncounterState(
        "s", "spycraft", FIVE_FOOT, BattleMap(20, 20), (shooter, thug, pal, brute)
    )


COLUMN = tuple(Square(6, y) for y in range(3, 9))  # (6,3) .. (6,8), across the line of fire


def plan(state: EncounterState, squares: tuple[Square, ...] = COLUMN, *, from_end: bool = False):  # type: ignore[no-untyped-def]
    shooter = state.token("me")
    return plan_strafe(state, shooter, shooter.weapons[0], squares, from_end=from_end)


def test_only_opponents_are_targets_and_a_friend_is_no_defense_step() -> None:
    result = plan(sweep())
    assert result.reasons == ()
    assert [(t.token_id, t.square, t.defense_bonus) for t in result.targets] == [
        ("thug", Square(6, 4), 2),
        ("brute", Square(6, 6), 4),  # the friend at (6,5) is skipped: the Brute gets +4, not +6
        ("brute", Square(6, 7), 6),  # an opponent on two strafed squares is two targets
    ]
    assert result.bystanders == (("pal", Square(6, 5)),)
    assert result.shots == 18  # 3 per square: the description rules over the table's 2


def test_steps_can_count_from_the_other_end() -> None:
    first = plan(sweep(), from_end=True).targets[0]
    assert (first.token_id, first.square, first.defense_bonus) == ("brute", Square(6, 7), 2)


def test_needs_nine_shots_and_at_most_a_third_of_them_in_squares() -> None:
    assert "has 8 shots left; Strafe needs 9 or more" in plan(sweep(ammo=8), COLUMN[:2]).reasons[0]
    assert any("can strafe at most 5" in r for r in plan(sweep(ammo=15)).reasons)
    assert plan(sweep(ammo=18)).reasons == ()


def test_never_more_than_ten_squares() -> None:
    chain = tuple(Square(8, y) for y in range(0, 11))
    assert any("at most 10" in r for r in plan(sweep(ammo=30), chain).reasons)


def test_squares_beyond_the_weapons_maximum_range_are_refused_one_by_one() -> None:
    # A 2-ft range increment reaches 20 ft (4 squares): the column 30 ft away is out of range.
    short = plan(sweep(range_increment=2.0))
    assert short.reasons_at(Square(6, 3)) == ("(6,3) is beyond SMG's range",)
    assert all(short.reasons_at(s) for s in COLUMN)
    near = plan(sweep(range_increment=2.0), (Square(3, 4), Square(3, 5)))
    assert near.reasons == ()


def test_the_overlay_marks_steps_friends_and_refusals() -> None:
    state = sweep()
    chain = (*COLUMN, Square(9, 9))  # (9,9) does not touch (6,8): a gap
    overlay = strafe_overlay(state, plan(state, chain))
    marks = {m.square: m for m in overlay.marks}
    assert marks[Square(6, 4)].label == "2\n+2 Defense"
    assert marks[Square(6, 5)].label == "3\nnot a target" and "Pal" in marks[Square(6, 5)].reason
    assert marks[Square(6, 6)].label == "4\n+4 Defense"
    assert marks[Square(9, 9)].tone is Tone.REFUSED and "gap" in marks[Square(9, 9)].reason
    assert marks[Square(6, 3)].tone is Tone.LEGAL
    assert overlay.token_ids(Role.TARGET) == ("thug", "brute")
    assert [m.value for m in overlay.token("brute").modifiers] == [4, 6]
    assert overlay.token_ids(Role.SPARED) == ("pal",)
    assert overlay.areas[0].tone is Tone.REFUSED
    assert overlay.squares(Tone.REFUSED) == set(chain)


def test_a_legal_sweeps_area_is_its_chain() -> None:
    state = sweep()
    overlay = strafe_overlay(state, plan(state))
    assert overlay.squares() == set(COLUMN)


def test_a_sweep_with_no_opponent_shows_the_rolls_modifiers_on_the_shooter() -> None:
    # Found by random play: a Strafe under Cover Fire over empty squares showed its -4 nowhere.
    state = sweep()
    empty = (Square(3, 10), Square(4, 10), Square(5, 10))
    covered = Modifier("under Cover Fire", -4, "attack")
    overlay = strafe_overlay(state, plan(state, empty), "me", (covered,))
    assert overlay.token_ids(Role.TARGET) == ()
    assert overlay.token("me").modifiers == (covered,)
    with_targets = strafe_overlay(state, plan(state), "me", (covered,))
    assert with_targets.token("me").modifiers == ()  # on each target instead
    assert covered in with_targets.token("thug").modifiers
