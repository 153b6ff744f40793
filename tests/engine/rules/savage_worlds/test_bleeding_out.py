"""Incapacitation and Bleeding Out (the edition's core rule, ``incapacitation``): a Wild Card
a hit takes out rolls Vigor at once (a critical failure kills, a failure bleeds out, a
success is stable); one Bleeding Out rolls Vigor at the start of each turn (a failure kills,
a raise stabilises) and is dealt a card for it; someone beside can stabilise him with
Healing; a Soak of that hit takes the roll back; the GM's hand makes no roll."""

from __future__ import annotations

import pytest

from engine.dice import GivenDice, SeededDice
from engine.rules import get_system
from engine.rules.base import Command
from engine.tokens import Condition, Side, Token
from engine.turns.session import Encounter

from .builders import fight, fighter

SHOOT_B = Command.build("shooting", "a", targets=["b"], weapon="Pistol")
STABILISE = Command.build("stabilise", "c", targets=["b"])
DOWN = (Condition("Incapacitated"), Condition("Bleeding Out"))


def texts(game: Encounter) -> list[str]:
    return [entry.text for entry in game.log]


def wild_b(*conditions: Condition, **stats: int | bool) -> Token:
    """The Wild Card b (Vigor d6, Toughness 5), three Wounds already unless told."""
    token = fighter("b", Side.ENEMY, (3, 0), **{"wild_card": True, "vigor": 6, "wounds": 3,
                                                **stats})
    return Token(token.id, token.name, token.side, token.square, speed=token.speed,
                 weapons=token.weapons, stats=token.stats, conditions=conditions)


def shot_down(vigor: tuple[int, ...], b: Token | None = None,
              injury: tuple[int, ...] = (7, 3)) -> Encounter:
    """a (an Extra, first to act) shoots b for 10 against Toughness 5: a Wound, his fourth;
    ``vigor``: his Vigor die and Wild Die against Incapacitation (-3 for the Wounds);
    ``injury``: the Injury Table's 2d6 and 1d6 (Guts, Battered, unless told)."""
    game = fight(fighter("a", Side.PARTY, (0, 0)), b or wild_b(),
                 fighter("c", Side.ENEMY, (4, 0), healing=8))
    game.apply(SHOOT_B, GivenDice([5, 5, 5, *vigor, *injury]))
    return game


def test_a_failed_incapacitation_roll_leaves_the_wild_card_bleeding_out() -> None:
    game = shot_down((2, 3))
    b = game.state.token("b")
    assert b.stats["wounds"] == 4
    assert b.has_condition("Incapacitated") and b.has_condition("Bleeding Out")
    assert ("B rolls Vigor 0 (Trait die 2, Wild Die 3 -3) against Incapacitation: fails: "
            "Bleeding Out (Vigor at the start of each turn; Healing from someone beside can "
            "stabilise).") in texts(game)
    assert texts(game)[-1] == ("B rolls on the Injury Table: Guts, Battered: Vigor one die "
                               "type lower (permanent).")
    injury = next(c for c in b.conditions if c.name == "Injury: Guts (Battered)")
    assert injury.value == 1 and injury.source == "Injury Table"  # permanent


def test_a_critical_failure_kills_and_the_dead_have_no_turn() -> None:
    game = shot_down((1, 1))
    b = game.state.token("b")
    assert b.has_condition("Dead") and not b.has_condition("Bleeding Out")
    assert "critical failure: dies" in texts(game)[-1]
    game.apply(Command("end_turn"), GivenDice([]))  # no die rolled for the dead
    assert "B is dead; turn skipped." in texts(game)
    assert game.state.combat.active == "c"


def test_a_success_is_stable_out_of_the_fight_and_rolls_no_more() -> None:
    game = shot_down((3, 7))  # the Wild Die aces (6 + 1): 7 - 3 = 4
    b = game.state.token("b")
    assert b.has_condition("Incapacitated") and not b.has_condition("Bleeding Out")
    assert not b.has_condition("Dead")
    game.apply(Command("end_turn"), GivenDice([]))
    assert "B is Incapacitated; turn skipped." in texts(game)


def test_an_extra_taken_out_makes_no_incapacitation_roll() -> None:
    extra = fighter("b", Side.ENEMY, (3, 0), vigor=6)
    game = shot_down((), extra)  # GivenDice holds no Vigor faces: a roll would fail loudly
    b = game.state.token("b")
    assert b.has_condition("Incapacitated") and not b.has_condition("Bleeding Out")
    assert not any("Vigor" in text for text in texts(game))


@pytest.mark.parametrize(("faces", "said", "after"), [
    ((2, 3), "fails and dies", "B is dead; turn skipped."),
    ((4, 7), "holds on, still Bleeding Out",
     "B is Incapacitated and Bleeding Out; the turn ends."),
    ((12, 2), "stabilises: no longer Bleeding Out, still Incapacitated",
     "B is Incapacitated; turn skipped."),
])
def test_bleeding_out_rolls_vigor_at_the_start_of_the_turn_which_then_ends(
        faces: tuple[int, int], said: str, after: str) -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(*DOWN, wounds=4),
                 fighter("c", Side.ENEMY, (4, 0)))
    game.apply(Command("end_turn"), GivenDice(list(faces)))
    lines = texts(game)
    rolled = next(text for text in lines if "while Bleeding Out" in text)
    assert rolled.startswith(f"B rolls Vigor {max(faces) - 3} (") and rolled.endswith(said + ".")
    assert lines.index(rolled) < lines.index(after)
    assert game.state.combat.active == "c"
    b = game.state.token("b")
    assert b.has_condition("Dead") == (said == "fails and dies")
    assert b.has_condition("Bleeding Out") == (said.startswith("holds on"))


@pytest.mark.parametrize(("conditions", "dealt"), [(DOWN, True), (DOWN[:1], False)])
def test_one_bleeding_out_is_dealt_a_card_and_a_stable_one_is_not(
        conditions: tuple[Condition, ...], dealt: bool) -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(*conditions, wounds=4, vigor=12),
                 fighter("c", Side.ENEMY, (4, 0)))
    dice = GivenDice([8, 2], fallback=SeededDice(5))  # b holds on in round 1 (d12 8 - 3)
    while game.state.combat.round == 1:
        game.apply(Command("end_turn"), dice)
    assert any(text.startswith("B is dealt") for text in texts(game)) is dealt
    assert bool(game.state.combat.combatant("b").get("card", "")) is dealt


def healer_beside_b(healing: int = 8) -> Encounter:
    """c, b's friend beside him, acts first; b is Bleeding Out with four Wounds."""
    return fight(fighter("c", Side.ENEMY, (4, 0), healing=healing), wild_b(*DOWN, wounds=4),
                 fighter("a", Side.PARTY, (0, 0)))


def test_healing_from_someone_beside_stabilises_with_the_patients_wound_penalty() -> None:
    game = healer_beside_b()
    preview = game.preview(STABILISE)
    assert preview.legal, preview.reasons
    assert [(m.name, m.value) for m in preview.modifiers] == [("Patient's Wounds", -3)]
    assert preview.overlay.token_ids() == ("c", "b")
    assert "Healing d8 -3 against 4" in preview.summary
    game.apply(STABILISE, GivenDice([7]))  # 7 - 3 = 4
    b = game.state.token("b")
    assert not b.has_condition("Bleeding Out") and b.has_condition("Incapacitated")
    assert texts(game)[-1] == ("C rolls Healing 4 (Trait die 7 -3) to stabilise B: B stops "
                               "bleeding (stable, still Incapacitated).")
    game.undo()
    game.apply(STABILISE, GivenDice([6]))
    assert game.state.token("b").has_condition("Bleeding Out")
    assert texts(game)[-1].endswith("B is still Bleeding Out.")


def test_an_untrained_healer_rolls_d4_minus_2_and_one_not_beside_is_refused() -> None:
    untrained = healer_beside_b(healing=0).preview(STABILISE)
    assert untrained.legal and "Healing d4 -5 against 4" in untrained.summary
    far = healer_beside_b().preview(Command.build("stabilise", "a", targets=["b"]))
    assert not far.legal  # not a's turn, and not beside
    game = healer_beside_b()
    game.apply(Command.build("gm_condition", targets=["b"], condition="Bleeding Out",
                             present=False))
    assert game.preview(STABILISE).reasons == ("B is not Bleeding Out",)
    moved = healer_beside_b()
    moved.apply(Command.build("move", "c", squares=[(5, 0), (6, 0)]))
    assert moved.preview(STABILISE).reasons == ("B is not beside C: Healing is hands-on",)


def test_a_soak_of_the_hit_takes_back_the_incapacitation_roll_even_a_death() -> None:
    game = shot_down((1, 1), wild_b(bennies=1))
    assert game.state.token("b").has_condition("Dead")
    assert game.preview(Command("soak", "b")).legal
    game.apply(Command("soak", "b"), GivenDice([8, 1]))  # Vigor 8 - 3: the Wound back
    b = game.state.token("b")
    assert b.stats["wounds"] == 3
    assert not any(b.has_condition(name) for name in ("Dead", "Incapacitated", "Bleeding Out"))
    assert "did not die after all" in texts(game)[-1]


def test_one_finished_off_cannot_soak_his_way_back() -> None:
    game = fight(fighter("a", Side.PARTY, (2, 0)), wild_b(bennies=1),
                 fighter("c", Side.ENEMY, (4, 0)))
    game.apply(SHOOT_B, GivenDice([5, 5, 5, 2, 3, 10]))  # Bleeding Out, a Leg injury
    game.apply(Command.build("finishing_move", "a", targets=["b"], weapon="Knife"))
    assert game.state.token("b").has_condition("Dead")
    assert "B is dead" in game.preview(Command("soak", "b")).reasons


def test_the_gms_hand_makes_no_roll_gives_bleeding_out_with_incapacitated_and_heals() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(), fighter("c", Side.ENEMY, (4, 0)))
    game.apply(Command.build("gm_damage", targets=["b"], amount=10), GivenDice([]))
    assert "B makes no Incapacitation roll (the GM's damage)" in texts(game)[-1]
    assert not game.state.token("b").has_condition("Bleeding Out")
    game.apply(Command.build("gm_condition", targets=["b"], condition="Bleeding Out"))
    assert game.state.token("b").has_condition("Bleeding Out")
    fresh = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(wounds=0))
    fresh.apply(Command.build("gm_condition", targets=["b"], condition="Bleeding Out"))
    assert fresh.state.token("b").has_condition("Incapacitated")  # only the down bleed out
    game.apply(Command.build("gm_heal", targets=["b"], amount=1))  # back to 3 Wounds
    b = game.state.token("b")
    assert not b.has_condition("Incapacitated") and not b.has_condition("Bleeding Out")


def test_the_gms_healing_does_not_raise_the_dead() -> None:
    game = shot_down((1, 1))
    game.apply(Command.build("gm_heal", targets=["b"], amount=2))
    b = game.state.token("b")
    assert b.stats["wounds"] == 2 and b.has_condition("Dead") and b.has_condition(
        "Incapacitated")


def test_the_tracker_knows_bleeding_out_and_dead() -> None:
    shown = {spec.name: spec for spec in get_system("savage-worlds").conditions}
    assert "Vigor at the start of each turn" in shown["Bleeding Out"].summary
    assert shown["Dead"].duration == "for good"


@pytest.mark.parametrize(("conditions", "flag"), [
    (DOWN, "Bleeding Out"), (DOWN[:1], "Incapacitated"),
    ((*DOWN[:1], Condition("Dead")), "Dead"), ((), None),
    (DOWN[1:], None),  # revived by the GM's hand: a Bleeding Out left over is not down
])
def test_the_trackers_health_column_flags_how_far_down_a_token_is(
        conditions: tuple[Condition, ...], flag: str | None) -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(*conditions, wounds=4))
    system = get_system("savage-worlds")
    shown = [g.text for g in system.gauges(game.state, game.state.token("b"))
             if g.key in ("Dead", "Bleeding Out", "Incapacitated")]
    assert shown == ([flag] if flag else [])
