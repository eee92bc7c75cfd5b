"""What a ruleset's opening gives the check: its compiled protocol, and the rules each seat is
judged by (``forbidden.restricted_seat``: the rules written for black bind a seat)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from renju_cli.memo import remember
from renju_cli.opening.compiler import compile_protocol
from renju_cli.opening.steps import SEATS, Protocol, ProtocolError

if TYPE_CHECKING:
    from renju_cli.ruleset import Ruleset

Holders = tuple[str | None, str | None]

_PROTOCOLS: dict[int, tuple[dict[str, Any], str, Protocol | ProtocolError]] = {}


def protocol_of(ruleset: Ruleset) -> Protocol | None:
    """The compiled protocol of a ruleset (cached), ``None`` without one.

    Raises ``ProtocolError`` when the ruleset's ``opening`` cannot be used.
    """
    raw = ruleset.opening
    if not raw:
        return None
    hit = _PROTOCOLS.get(id(raw))
    # (rulesets that extend one share its mapping: an unnamed protocol is named after each)
    if hit is None or hit[0] is not raw or hit[1] != ruleset.name:
        compiled: Protocol | ProtocolError
        try:
            compiled = compile_protocol(raw, ruleset.name)
        except ProtocolError as e:
            compiled = e
        hit = remember(_PROTOCOLS, id(raw), (raw, ruleset.name, compiled), 256)
    if isinstance(hit[2], ProtocolError):
        raise hit[2]
    return hit[2]


def usable_protocol(ruleset: Ruleset) -> Protocol | None:
    """``protocol_of``, ``None`` for one that cannot be used too."""
    try:
        return protocol_of(ruleset)
    except ProtocolError:
        return None


def restricted_seat(ruleset: Ruleset) -> str | None:
    """The seat the rules written for black bind (``forbidden.restricted_seat``), if any."""
    seat = (ruleset.data.get("forbidden") or {}).get("restricted_seat")
    return seat if seat in SEATS else None


_EXCHANGED: dict[int, tuple[Ruleset, Ruleset]] = {}


def rules_for(ruleset: Ruleset, holders: Holders) -> Ruleset:
    """The ruleset to judge with while ``holders`` hold (black, white).

    Under ``forbidden.restricted_seat`` the rules written for black (forbidden kinds, overline)
    bind that seat whichever colour it holds: when it holds white, the colours' rules are
    exchanged.  Otherwise the ruleset itself.
    """
    seat = restricted_seat(ruleset)
    if seat is None or holders[1] != seat:
        return ruleset
    hit = _EXCHANGED.get(id(ruleset))
    if hit is None or hit[0] is not ruleset:
        swapped = dataclasses.replace(
            ruleset,
            overline={"black": ruleset.overline["white"], "white": ruleset.overline["black"]},
            forbidden={"black": ruleset.forbidden["white"], "white": ruleset.forbidden["black"]},
        )
        hit = remember(_EXCHANGED, id(ruleset), (ruleset, swapped), 64)
    return hit[1]
