"""The Cities Without Number action catalogue, as data. Summaries are in our own words.

``time`` is the action type: Main, Move, On Turn, Instant, "Instant (gives up the Main
action)" or "Main and Move" (see ``economy.ActionType``).
"""

from __future__ import annotations

from engine.rules.base import ActionSpec, Need, helping
from engine.rules.cities_without_number.economy import ActionType

ATTACK = "attack"
MOVE = "movement"
DEFENCE = "defence"
ITEM = "item"
OTHER = "other"


def _spec(key: str, name: str, category: str, cost: ActionType, summary: str,
          *needs: Need) -> ActionSpec:
    return ActionSpec(key, name, category, str(cost), summary, needs=needs)


ACTIONS: tuple[ActionSpec, ...] = (
    _spec("melee_attack", "Make a Melee Attack", ATTACK, ActionType.MAIN,
          "Strike someone in melee range with fists or a blade (Punch or Stab). A miss may "
          "still deal the weapon's Shock.", Need.TARGET, Need.WEAPON),
    _spec("ranged_attack", "Make a Ranged Attack", ATTACK, ActionType.MAIN,
          "Shoot or throw (Shoot). With a foe in melee range, pistols and thrown weapons take "
          "-4 and rifles cannot fire at all.", Need.TARGET, Need.WEAPON),
    _spec("snap_attack", "Make a Snap Attack", ATTACK, ActionType.INSTANT_FOR_MAIN,
          "Trade the unspent Main action for a melee or ranged attack at -4, even out of turn. "
          "NPCs need real discipline to do it.", Need.TARGET, Need.WEAPON),
    _spec("swarm_attack", "Make a Swarm Attack", ATTACK, ActionType.MAIN,
          "Gang up on one foe: up to four assailants join; one of them strikes with +2 to hit "
          "and +1 damage per other assailant (at most +6/+3); its Shock always lands.",
          Need.TARGET, Need.WEAPON),
    _spec("charge", "Charge", ATTACK, ActionType.MAIN_AND_MOVE,
          "Run at least 3 m and up to double move in a straight line, then a melee or thrown "
          "attack at +2; -2 to your ACs until the end of the round.", Need.TARGET, Need.WEAPON),
    _spec("screen_ally", "Screen an Ally", DEFENCE, ActionType.MOVE,
          "Move beside an ally and body-block blows aimed at them until your next turn: "
          "attackers must beat you in an opposed combat check or hit you instead.",
          Need.TARGET),
    _spec("total_defense", "Total Defense", DEFENCE, ActionType.INSTANT_FOR_MAIN,
          "Give up the unspent Main action: +2 to both ACs and no Shock until your next turn."),
    _spec("run", "Run", MOVE, ActionType.MOVE,
          "Move up to your movement rate (10 m for most people). Armed melee foes beside you "
          "get a free swing as you leave unless you withdrew first.", Need.PATH),
    _spec("fighting_withdrawal", "Make a Fighting Withdrawal", MOVE, ActionType.MAIN,
          "Disengage from adjacent foes so that a following move draws no free attacks."),
    _spec("use_skill", "Use a Skill", OTHER, ActionType.MAIN,
          "First aid, a quick hack, anything a skill does in a few seconds: 2d6 + skill "
          "against a difficulty."),
    _spec("ready_item", "Ready an Item", ITEM, ActionType.MAIN,
          "Take an item out of the pack into hand."),
    _spec("stow_item", "Stow an Item", ITEM, ActionType.MAIN,
          "Put a readied item away in the pack."),
    _spec("reload", "Reload a Weapon", ITEM, ActionType.MAIN,
          "Fresh magazine into a gun; a modern bow reloads as On Turn with Shoot-1, else as a "
          "Move.", Need.WEAPON),
    _spec("drop_item", "Drop an Item", ITEM, ActionType.INSTANT,
          "Let go of something in hand, any time.", Need.WEAPON),
    _spec("pick_up_item", "Pick up an Item", ITEM, ActionType.MOVE,
          "Scoop up a dropped item within reach; it ends up readied in hand.", Need.SQUARE),
    _spec("stand_up", "Stand Up", MOVE, ActionType.MOVE,
          "Get off the ground, grabbing anything dropped where you lie."),
    _spec("go_prone", "Go Prone", MOVE, ActionType.ON_TURN,
          "Hit the floor: shots at you take -2, melee attacks +2, and you move at half speed."),
    _spec("hold_action", "Hold an Action", OTHER, ActionType.MOVE,
          "Spend the Move action to wait: the rest of your turn can be fired off as an Instant "
          "action until the round ends, and goes first if it answers someone's action."),
)
#: Aimed at a friend, to help: a token menu lists them first on an ally.
ACTIONS = helping(ACTIONS, frozenset({"screen_ally"}))


def action_spec(key: str) -> ActionSpec:
    for spec in ACTIONS:
        if spec.key == key:
            return spec
    raise KeyError(f"Cities Without Number has no action {key!r}")


def action_type(key: str) -> ActionType:
    return ActionType(action_spec(key).time)
