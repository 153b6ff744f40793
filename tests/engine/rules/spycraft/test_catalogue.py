"""Table: Actions as data, and the Proficiency and Incidental tags."""

from engine.rules import get_system
from engine.rules.spycraft.catalogue import ACTIONS, IDL, PRF, TRICK, action_spec
from engine.rules.spycraft.handlers import HANDLERS
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import SMG, agent, cmd, started

TABLE = {
    # name: (category, time, error range, tags)
    "Standard Attack": ("attack", "half", "+0", ()),
    "Autofire": ("attack", "full", "+2", ()),
    "Coup de Grace": ("attack", "full", "+0", ()),
    "Cover Fire": ("attack", "full", "+0", ()),
    "Disarm": ("attack", "half", "+2", (PRF,)),
    "Grapple": ("attack", "full", "+0", (PRF,)),
    "Kick": ("attack", "half", "+0", ()),
    "Pummel": ("attack", "full", "+0", ()),
    "Strafe": ("attack", "full", "+2", ()),
    "Suppressive Fire": ("attack", "full", "+1", ()),
    "Taunt": ("attack", "half", "+0", ()),
    "Threaten": ("attack", "half", "+0", ()),
    "Trip": ("attack", "half", "+1", ()),
    "Aim": ("initiative", "half", "+0", (PRF,)),
    "Anticipate": ("initiative", "half", "+0", ()),
    "Brace": ("initiative", "half", "+0", ()),
    "Delay": ("initiative", "free", "+0", ()),
    "Diversion": ("initiative", "half", "+1", ()),
    "Drop a Ready Item": ("initiative", "free", "+0", (IDL,)),
    "Joint Action": ("initiative", "full", "+1", ()),
    "Press": ("initiative", "free", "+0", ()),
    "Ready": ("initiative", "full", "+0", ()),
    "Refresh": ("initiative", "round", "+0", ()),
    "Regroup": ("initiative", "round", "+0", ()),
    "Stand Off": ("initiative", "free", "+0", ()),
    "Standard Move": ("movement", "half", "+0", ()),
    "Bull Rush": ("movement", "full", "+0", ()),
    "Crouch": ("movement", "half", "+0", ()),
    "Draw/Holster/Pick Up Weapon": ("movement", "half", "+0", (IDL,)),
    "Drop Prone": ("movement", "half", "+0", ()),
    "Feint": ("movement", "half", "+1", ()),
    "Reload": ("movement", "half", "+0", (IDL, PRF)),
    "Run": ("movement", "full", "+1", ()),
    "Stand Up": ("movement", "half", "+0", ()),
    "Tire": ("movement", "half", "+1", ()),
    "Total Defense": ("movement", "full", "+0", ()),
    "Withdraw": ("movement", "full", "+0", ()),
    "Bounce": ("trick", "free", "+1 per surface", (PRF,)),
    "Burst": ("trick", "free", "+1", ()),
    "Called Shot": ("trick", "free", "+0", ()),
    "Cheap Shot": ("trick", "free", "+1", ()),
    "Fight Defensively": ("trick", "free", "+0", ()),
}


def test_every_row_of_table_actions_is_in_the_catalogue() -> None:
    by_name = {spec.name: spec for spec in ACTIONS}
    for name, (category, time, error, tags) in TABLE.items():
        spec = by_name[name]
        assert (spec.category, spec.time, spec.error_range, spec.tags) == (
            category,
            time,
            error,
            tags,
        ), name
        assert spec.summary


def test_every_non_trick_action_has_rules() -> None:
    for spec in ACTIONS:
        if spec.category != "trick":
            assert spec.key in HANDLERS, spec.key


def test_strafe_follows_its_description_three_shots_a_square() -> None:
    assert action_spec("strafe").shots == "3 per square"


def test_the_system_serves_its_catalogue() -> None:
    spycraft = get_system("spycraft")
    assert spycraft.action("strafe").name == "Strafe"
    assert spycraft.economy.pools == {"half": 2}


def test_proficiency_doubles_the_time() -> None:
    fight = started(
        agent("kevin", 1, 1, not_proficient=("aim",)), agent("guard", 8, 1, Side.ENEMY),
        rolls=[20, 1],
    )
    preview = fight.preview(cmd("aim", "kevin", targets=["guard"]))
    assert preview.cost == "1 full action (2 half actions)"
    fight.apply(cmd("aim", "kevin", targets=["guard"]))
    assert fight.state.combat.combatant("kevin").budget["half"] == 0


def test_proficiency_widens_the_error_range_by_two() -> None:
    fight = started(
        agent("kevin", 1, 1, not_proficient=("pistol",)),
        agent("guard", 3, 1, Side.ENEMY),
        rolls=[20, 1],
    )
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [3, 1])
    assert any("misses (an error)" in e.text for e in fight.log)


def test_incidental_action_rides_free_once_with_movement() -> None:
    empty = SMG.with_ammo(0)
    fight = started(
        agent("kevin", 1, 1, weapons=(empty,)), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 1]
    )
    alone = fight.preview(cmd("reload", "kevin", weapon="SMG", incidental=True))
    assert not alone.legal and "only with a movement action" in alone.reasons[0]
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    fight.apply(cmd("reload", "kevin", weapon="SMG", incidental=True))
    assert fight.state.combat.combatant("kevin").budget["half"] == 1
    assert fight.state.token("kevin").weapon("SMG").ammo == 30
    fight.apply(cmd("drop_ready_item", "kevin", weapon="SMG"))  # a free action anyway
    again = fight.preview(
        cmd("draw_holster", "kevin", weapon="SMG", mode="pick_up", incidental=True)
    )
    assert not again.legal and "already used" in again.reasons[0]


def test_a_trick_chosen_as_an_action_is_the_standard_attack_carrying_it() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 1])
    alone = fight.preview(cmd("called_shot", "kevin", targets=["guard"], weapon="pistol"))
    riding = fight.preview(
        cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol", trick="called_shot")
    )
    assert alone.legal == riding.legal and alone.reasons == riding.reasons
    assert alone.modifiers == riding.modifiers and alone.cost == riding.cost
    assert alone.command == riding.command  # what it does is the Standard Attack's


def test_proficiency_doubled_full_action_eats_half_of_next_round() -> None:
    fight = started(
        agent("kevin", 4, 4, not_proficient=("grapple",), athletics=5),
        agent("guard", 5, 4, Side.ENEMY),
        rolls=[20, 1],
    )
    preview = fight.preview(cmd("grapple", "kevin", targets=["guard"]))
    assert preview.cost == "4 half actions (into the next round)"
    fight.apply(cmd("grapple", "kevin", targets=["guard"]), [15, 2])
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.combatant("kevin").budget["half"] == 0  # round 2 spent too


def test_legal_actions_lists_what_the_token_can_do_now() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[18, 2])
    keys = {spec.key for spec in fight.legal_actions("kevin")}
    assert {"standard_attack", "standard_move", "delay", "crouch", "strafe"} <= keys
    assert "press" not in keys  # Count 20 is under 25
    assert "stand_up" not in keys  # he is standing
    assert "burst" in keys  # a trick: the Standard Attack carrying it
    # Out of his turn the guard has only the reactions and the GM's table events.
    reactions = {spec.key for spec in fight.legal_actions("guard")}
    assert reactions <= {"stand_off", "trigger_ready", "fluid_event"}
    assert "stand_off" in reactions


def test_every_trick_is_offered_wherever_tricks_are_listed() -> None:
    """One list of the tricks riding on a Standard Attack: the option's choices, the trick
    actions of the table and random play's example commands all offer each of them (random
    play once never tried Bounce, from a copy of the list without it)."""
    system = get_system("spycraft")
    tricks = {spec.key for spec in ACTIONS if spec.category == TRICK} - {"fight_defensively"}
    choices = next(o for o in system.options_of("standard_attack") if o.name == "trick").choices
    assert set(choices) == tricks == {"burst", "called_shot", "cheap_shot", "bounce"}
    fight = started(agent("a1", 1, 1), agent("e1", 3, 1, Side.ENEMY))
    tried = {command.option("trick") for command in system.example_commands(fight.state, "a1")
             if command.action == "standard_attack"}
    assert tricks <= tried
