"""A position where each catalogue action of each registered system is legal.

Shared by the engine's tests and the desktop's every-action test (which performs each one
through the UI). ``legal_setup(system, action)`` builds a small close-quarters encounter
(Ann of the party stands next to the enemy Cal; Bob, Ann's friend, stands two squares away;
the enemy Dee is across the room), starts the fight with a fixed seed, plays the few
commands the action needs first (a Hold before acting from it, a Ready before its trigger,
a grapple before breaking free...) and hands the turn to the actor. The command is then
the recipe's own, or the first legal one of the system's ``example_commands`` for that action.

Recipes name only what the rules require before the action; everything else is found by
asking the engine, so a changed rule shows up here as "no legal command", not as a stale
hard-coded result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine.battlemap import BattleMap, CoverGrade, CoverObject
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import Command, CommandError
from engine.rules.savage_worlds.combat_state import RerollableRoll, with_rerolls
from engine.rules.spycraft.combat_state import record_harm
from engine.tokens import Condition, Side, Token, Weapon
from engine.turns.session import Encounter

ACTOR = "a1"
SEED = 7
#: End turns tried while waiting for a token's turn (a round of four, twice over).
MAX_TURNS = 12

TokenTweak = Callable[[Token], Token]
CommandFor = Callable[[EncounterState], Command]


@dataclass(frozen=True)
class Recipe:
    """What an action needs before it is legal: token changes, steps, the command."""

    tokens: dict[str, TokenTweak] = field(default_factory=dict)
    #: Commands played first, each in its actor's turn (None actor: as given, any turn);
    #: a step may instead return a changed state (what a roll would have done).
    before: tuple[Callable[[EncounterState], Command | EncounterState], ...] = ()
    #: The command to perform (None: the first legal example command of the action).
    command: CommandFor | None = None
    #: Whose turn it must be when the action is taken (None: the actor's).
    turn_of: str | None = ACTOR
    #: A change to the started fight the rules read (an Initiative Count, a harm tally).
    after_start: Callable[[EncounterState], EncounterState] | None = None


@dataclass(frozen=True)
class LegalSetUp:
    system: str
    action: str
    state: EncounterState
    command: Command
    seed: int = SEED


def every_action() -> list[tuple[str, str]]:
    """(system, action key) for every catalogue action of every registered system."""
    return [(name, spec.key) for name in system_names() for spec in get_system(name).catalogue]


def close_quarters(system_name: str) -> EncounterState:
    """Ann (a1) beside Cal (e1), Bob (a2) two squares from Ann, Dee (e2) across the room."""
    system = get_system(system_name)
    square = system.scale.square_size
    rifle = Weapon(
        "rifle",
        "2d8",
        10.0 * square,
        30,
        30,
        ("single-shot", "burst", "full auto"),
        rate_of_fire=3,
    )
    pistol = Weapon("pistol", "2d6", 6.0 * square, 12, 12, ("single-shot",))
    knife = Weapon("knife", "1d4", 0.0, melee=True)
    speed = 6 * square
    tokens = (
        Token("a1", "Ann", Side.PARTY, Square(6, 6), speed=speed, weapons=(rifle, pistol, knife)),
        Token("a2", "Bob", Side.PARTY, Square(6, 8), speed=speed, weapons=(rifle, knife)),
        Token("e1", "Cal", Side.ENEMY, Square(7, 6), speed=speed, weapons=(rifle, knife)),
        Token("e2", "Dee", Side.ENEMY, Square(13, 6), speed=speed, weapons=(rifle,)),
    )
    return EncounterState("Close quarters", system_name, system.scale, BattleMap(20, 14), tokens)


def open_room(system_name: str) -> Encounter:
    """Ann's turn at (30,12) on a wide empty floor, far from everyone: room to walk east."""
    state = close_quarters(system_name)
    state = replace(state, battlemap=BattleMap(60, 14))
    state = state.with_token(state.token(ACTOR).moved_to(Square(30, 12)))
    fight = Encounter(state, seed=SEED)
    fight.apply(Command("start_combat"))
    turn_to(fight, ACTOR)
    return fight


def turn_to(fight: Encounter, token_id: str) -> None:
    """End turns until it is ``token_id``'s turn."""
    for _ in range(MAX_TURNS):
        if fight.state.combat.active == token_id:
            return
        fight.apply(Command("end_turn"))
    raise AssertionError(f"{token_id} never got a turn")


def first_legal(fight: Encounter, actor: str, action: str) -> Command | None:
    for command in fight.example_commands(actor):
        if command.action != action:
            continue
        try:
            if fight.preview(command).legal:
                return command
        except CommandError:
            continue
    return None


def legal_setup(system_name: str, action: str) -> LegalSetUp:
    """A state where ``action`` is legal in ``system_name``, and a legal command for it."""
    recipe = RECIPES.get((system_name, action), Recipe())
    state = close_quarters(system_name)
    for token_id, tweak in recipe.tokens.items():
        state = state.with_token(tweak(state.token(token_id)))
    fight = Encounter(state, seed=SEED)
    fight.apply(Command("start_combat"))
    if recipe.after_start is not None:
        fight = Encounter(recipe.after_start(fight.state), seed=SEED)
    for step in recipe.before:
        command = step(fight.state)
        if isinstance(command, EncounterState):  # a change the rules made (a crack)
            fight = Encounter(command, seed=SEED)
            continue
        if command.actor is not None:
            turn_to(fight, command.actor)
        fight.apply(command)
    if recipe.turn_of is not None:
        turn_to(fight, recipe.turn_of)
    command = recipe.command(fight.state) if recipe.command else first_legal(fight, ACTOR, action)
    if command is None:
        raise AssertionError(f"{system_name}: no legal {action} found for {ACTOR}")
    preview = fight.preview(command)
    assert preview.legal, f"{system_name} {action}: {preview.reasons}"
    return LegalSetUp(system_name, action, fight.state, command)


def _with(**changes: object) -> TokenTweak:
    return lambda token: replace(token, **changes)  # type: ignore[arg-type]


def _missed_shot(state: EncounterState) -> EncounterState:
    """What a missed shot of Ann's at Dee leaves for a Benny (not made in an action, so the
    turns passed to reach hers keep it)."""
    missed = RerollableRoll(ACTOR, "attack", "shooting", 6, 0, 2, other="e2", weapon="rifle")
    return with_rerolls(state, (missed,))


def _condition(name: str, source: str | None = None) -> TokenTweak:
    return lambda token: replace(
        token, conditions=(*token.conditions, Condition(name, None, source))
    )


def _bleeding_out(token: Token) -> Token:
    stats = {**token.stats, "wild_card": True, "vigor": 12, "wounds": 4}
    down = (Condition("Incapacitated"), Condition("Bleeding Out"))
    return replace(token, stats=stats, conditions=(*token.conditions, *down))  # type: ignore[arg-type]


def _weapons(*names: str) -> TokenTweak:
    """Keep only the named weapons (a second pistol is made from the first)."""

    def keep(token: Token) -> Token:
        by_name = {w.name: w for w in token.weapons}
        chosen = [by_name[n] if n in by_name else replace(by_name["pistol"], name=n) for n in names]
        return replace(token, weapons=tuple(chosen))

    return keep


def _half_empty(token: Token) -> Token:
    return replace(token, weapons=tuple(replace(w, ammo=w.capacity // 2) for w in token.weapons))


def _cmd(action: str, actor: str = ACTOR, **options: object) -> CommandFor:
    return lambda _state: Command.build(action, actor, **options)  # type: ignore[arg-type]


def _harm_done(attacker: str, target: str, vitality: int, wounds: int,
               ) -> Callable[[EncounterState], EncounterState]:
    """What Spycraft's attacker has already taken from the target, in its typed fight state."""
    def change(state: EncounterState) -> EncounterState:
        return record_harm(state, attacker, target, vitality, wounds)

    return change


def _combatant(token_id: str, **changes: object) -> Callable[[EncounterState], EncounterState]:
    """Change a combatant (its ``data`` entries are merged), then re-sort nothing."""

    # Read, never pop: the recipe is built once and the set-up may be asked for again.
    data_changes: dict[str, object] = changes.get("data", {})  # type: ignore[assignment]
    others = {key: value for key, value in changes.items() if key != "data"}

    def change(state: EncounterState) -> EncounterState:
        order = []
        for combatant in state.combat.order:
            if combatant.token_id == token_id:
                data = {**combatant.data, **data_changes}
                combatant = replace(combatant, data=data, **others)  # type: ignore[arg-type]
            order.append(combatant)
        return replace(state, combat=replace(state.combat, order=tuple(order)))

    return change


def _hit(token_id: str, damage: int) -> Callable[[EncounterState], EncounterState]:
    """A hit of ``damage`` on the token, as the GM's hand applies one."""
    def change(state: EncounterState) -> EncounterState:
        return get_system(state.system).take_damage(state, token_id, damage)[0]

    return change


def _newcomer(state: EncounterState) -> EncounterState:
    """A token put on the map after the fight started (not in the turn order yet)."""
    return state.with_token(
        Token("n1", "Nia", Side.PARTY, Square(2, 2), speed=state.token(ACTOR).speed)
    )


def _trick(key: str, weapon: str = "rifle") -> Recipe:
    return Recipe(command=lambda _s: Command(key, ACTOR, ("e1",), weapon=weapon))


def _pistols(token: Token) -> Token:
    pistol = replace(token.weapon("pistol"), traits=("pistol",))
    return replace(token, weapons=(pistol, replace(pistol, name="pistol 2")))


def _thrown_knife(token: Token) -> Token:
    knife = replace(token.weapon("knife"), traits=("thrown",), range_increment=10.0)
    return replace(token, weapons=(knife,), stats={**token.stats, "dex": 2})


def _crate_before(token_id: str) -> Callable[[EncounterState], EncounterState]:
    """A tall crate right in front of (east of) the token: three-quarters cover."""

    def change(state: EncounterState) -> EncounterState:
        square = state.token(token_id).square
        x, y = square.x + 1, square.y - 2
        crate = CoverObject(
            "crate",
            "Crate",
            ((x, y), (x + 0.6, y), (x + 0.6, y + 5), (x, y + 5)),
            CoverGrade.THREE_QUARTERS,
            6.0,
        )
        battlemap = replace(state.battlemap, cover=(*state.battlemap.cover, crate))
        return replace(state, battlemap=battlemap)

    return change


def _frag_grenade(token: Token) -> Token:
    """Two frag grenades (Medium Blast, thrown) besides the usual weapons."""
    grenade = Weapon("frag grenade", "3d6", 5.0, 2, 2, traits=("Medium Blast", "thrown"))
    return replace(token, weapons=(*token.weapons, grenade))


_CAL_AWAY = {"e1": _with(square=Square(10, 6))}
_ONE_RIFLE = {"a1": _weapons("rifle")}
_RELOAD = {"a1": _half_empty}

RECIPES: dict[tuple[str, str], Recipe] = {
    # Cities Without Number
    ("cities-without-number", "charge"): Recipe(tokens=_CAL_AWAY),
    ("cities-without-number", "screen_ally"): Recipe(
        tokens={"a1": _with(stats={"shoot": 1}), "a2": _with(square=Square(6, 7))},
        command=lambda _s: Command("screen_ally", ACTOR, ("a2",)),
    ),
    ("cities-without-number", "reload"): Recipe(tokens=_RELOAD),
    ("cities-without-number", "pick_up_item"): Recipe(
        before=(_cmd("drop_item", weapon="knife"), _cmd("end_turn", None))
    ),
    ("cities-without-number", "stand_up"): Recipe(
        before=(_cmd("go_prone"), _cmd("end_turn", None))
    ),
    # d20 modern firearms
    ("d20-firearms", "aim"): Recipe(tokens=_ONE_RIFLE),
    ("d20-firearms", "stop_aiming"): Recipe(
        tokens=_ONE_RIFLE, before=(_cmd("aim", weapon="rifle"),)
    ),
    ("d20-firearms", "overwatch"): Recipe(tokens=_ONE_RIFLE, before=(_cmd("aim", weapon="rifle"),)),
    ("d20-firearms", "take_cover"): Recipe(
        after_start=_combatant(ACTOR, data={"cover_owed": True})
    ),
    ("d20-firearms", "charge"): Recipe(tokens=_CAL_AWAY),
    ("d20-firearms", "two_weapon_attack"): Recipe(tokens={"a1": _pistols}),
    ("d20-firearms", "blind_fire"): Recipe(tokens=_CAL_AWAY, after_start=_crate_before(ACTOR)),
    ("d20-firearms", "reload"): Recipe(tokens=_RELOAD),
    # Cal (beside Ann) lies stable at -2: helpless. Bob, dying at -1, stands beside Ann.
    ("d20-firearms", "coup_de_grace"): Recipe(
        tokens={"e1": _with(stats={"hp": -2}, conditions=(Condition("Stable"),))}
    ),
    ("d20-firearms", "treat_injury"): Recipe(
        tokens={"a2": _with(square=Square(6, 7), stats={"hp": -1},
                            conditions=(Condition("Stable"),))},
        # Stable so the set-up's turns cannot bleed him out; the GM's damage reopens it.
        before=(_cmd("gm_damage", None, targets=["a2"], amount=1),),
    ),
    # Savage Worlds
    ("savage-worlds", "finishing_move"): Recipe(tokens={"e1": _condition("Bound", ACTOR)}),
    ("savage-worlds", "crush"): Recipe(tokens={"e1": _condition("Entangled", ACTOR)}),
    ("savage-worlds", "break_free"): Recipe(tokens={"a1": _condition("Entangled", "e1")}),
    ("savage-worlds", "act_from_hold"): Recipe(before=(_cmd("hold"),), turn_of=None),
    ("savage-worlds", "stand_up"): Recipe(before=(_cmd("go_prone"), _cmd("end_turn", None))),
    ("savage-worlds", "soak"): Recipe(
        tokens={"a1": _with(stats={"wild_card": True, "bennies": 2})},
        before=(_hit(ACTOR, 14),),  # two Wounds against Toughness 5
        command=_cmd("soak"),
    ),
    # Cal, beside Ann, is down and Bleeding Out (a Wild Card with a d12 Vigor, so he is
    # still bleeding when Ann's turn comes).
    ("savage-worlds", "stabilise"): Recipe(tokens={"e1": _bleeding_out}),
    # Ann has just missed Dee with her rifle (a 2 against 4), a Benny in hand.
    ("savage-worlds", "reroll"): Recipe(
        tokens={"a1": _with(stats={"wild_card": True, "bennies": 1})},
        before=(_missed_shot,),
        command=_cmd("reroll"),
    ),
    ("savage-worlds", "area_attack"): Recipe(
        tokens={"a1": _frag_grenade},
        command=lambda _s: Command.build(
            "area_attack", ACTOR, squares=[Square(13, 6)], weapon="frag grenade"
        ),
    ),
    # Spycraft 2.0
    ("spycraft", "coup_de_grace"): Recipe(tokens={"e1": _condition("helpless")}),
    ("spycraft", "threaten"): Recipe(after_start=_harm_done("a1", "e1", vitality=5, wounds=1)),
    ("spycraft", "press"): Recipe(after_start=_combatant(ACTOR, initiative=30)),
    ("spycraft", "reload"): Recipe(tokens=_RELOAD),
    ("spycraft", "stand_up"): Recipe(before=(_cmd("drop_prone"), _cmd("end_turn", None))),
    ("spycraft", "bounce"): Recipe(
        tokens={"a1": _thrown_knife},
        command=lambda _s: Command.build(
            "bounce", ACTOR, targets=["e1"], weapon="knife", surfaces=1
        ),
    ),
    ("spycraft", "burst"): _trick("burst"),
    ("spycraft", "called_shot"): _trick("called_shot", "knife"),
    ("spycraft", "surrender"): Recipe(
        before=(_cmd("stand_off", targets=["e1"], weapon="rifle"),),
        command=_cmd("surrender"),
    ),
    ("spycraft", "take_the_shot"): Recipe(
        before=(
            _cmd("stand_off", targets=["e1"], weapon="rifle"),
            lambda state: state.with_token(_condition("cracked", "e1")(state.token(ACTOR))),
        ),
        command=_cmd("take_the_shot"),
    ),
    ("spycraft", "cheap_shot"): _trick("cheap_shot"),
    ("spycraft", "trigger_ready"): Recipe(
        before=(_cmd("ready", then="standard_attack", trigger="Cal moves"),), turn_of="e1"
    ),
    ("spycraft", "grapple_check"): Recipe(tokens={"e1": _condition("held", ACTOR)}),
    ("spycraft", "enter_combat"): Recipe(
        after_start=_newcomer, command=_cmd("enter_combat", "n1"), turn_of=None
    ),
    ("spycraft", "shake_off"): Recipe(tokens={"a1": _condition("cheap shot", "e1")}),
}
