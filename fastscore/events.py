"""Timing events of a win: what the tiles cannot tell (docs/rules.md, "Events"; docs/profiles/).

Some rows of the Taiwanese tables score when the win happened, not what it holds:
on the last tile, after a gong, robbing a gong, before the first discards, or
after declaring ready early.  The hand's record says so with ``events``: a list
of event names (or one string of them, separated by spaces or commas); a
:class:`~fastscore.HandBatch` holds them as the ``events`` column, ``(N,) uint16``,
a bit per event (:class:`Event`).  No event is the default, and the LRC table has
no event row, so its scores never depend on them.

Events must fit the win: :func:`event_fault` names an event that cannot happen
with it (``after_gong`` on a discard, ``heavenly`` for a seat other than East,
the dealer), and the record parsers flag such a row.  The event rows themselves
(:mod:`fastscore.kernels.family_rows`) also read the win, so a batch built over
arrays scores an impossible event as nothing.
"""

from __future__ import annotations

from enum import IntFlag

import numpy as np

from .tiles import ErrorCode, HandError

__all__ = ["Event", "EVENT_NAMES", "ALL_EVENTS", "parse_events", "events_text", "event_fault", "event_faults",
           "checked_events"]


class Event(IntFlag):
    """The timing events of a win, a bit each in the ``events`` column."""

    #: Won on the last tile: the last tile of the wall self-drawn, or the discard after it.
    LAST_TILE = 1
    #: Self-drawn on the replacement tile after declaring a gong.
    AFTER_GONG = 2
    #: Won on a discard robbed from another player's added gong (a pong made a gong).
    ROBBING_GONG = 4
    #: The dealer (East) wins by self-draw on the dealt tiles, before any discard.
    HEAVENLY = 8
    #: Won on the first discard of the hand, or self-drawn on one's first draw, before any claim.
    EARTHLY = 16
    #: Declared ready with the first discard of the hand (the dealer's).
    READY_FIRST = 32
    #: Declared ready in the first go-around (discards 2 to 8), before any set was claimed.
    READY_EARLY = 64
    #: Won in the first go-around after the dealer's first discard (while the hand's discards number 2 to 4),
    #: on a discard or by self-draw, before any set was claimed at the table.
    HUMAN = 128
    #: Self-drawn on the replacement tile after setting aside a flower.
    AFTER_FLOWER = 256
    #: Won on a discard that one other player also wins on (two winners on one tile).
    DOUBLE_WIN = 512
    #: Won on a discard that both other players also win on (three winners on one tile).
    TRIPLE_WIN = 1024
    #: The winner declares the win a Great Chicken (大雞胡, hk-taiwanese p-1): a flat value in place of the
    #: hand's pattern rows and the base.
    GREAT_CHICKEN = 2048


#: Event names, in bit order: the words of a record's ``events``.
EVENT_NAMES = tuple(e.name.lower() for e in Event)
#: Every event bit.
ALL_EVENTS = sum(int(e) for e in Event)
_BY_NAME = {e.name.lower(): int(e) for e in Event}


def parse_events(value) -> int:
    """The ``events`` bits of a record's ``events``: None or ``""`` (none), a string of event names
    separated by spaces or commas, a list of names, or the bits as an integer.

    Raises
    ------
    ValueError
        An unknown event name (the message names it and lists the known ones), an integer
        outside 0 to :data:`ALL_EVENTS`, or another type.
    """
    if value is None:
        return 0
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if 0 <= value <= ALL_EVENTS and not value & ~ALL_EVENTS:
            return int(value)
        raise ValueError(f"events {value!r} is not a set of event bits (0 to {ALL_EVENTS})")
    if isinstance(value, str):
        words = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)) and all(isinstance(w, str) for w in value):
        words = [w.strip() for w in value]
    else:
        raise ValueError(f"events {value!r} must be a list of event names or one string of them")
    bits = 0
    for word in words:
        bit = _BY_NAME.get(word.lower())
        if bit is None:
            raise ValueError(f"unknown event {word!r} (known: {', '.join(EVENT_NAMES)})")
        bits |= bit
    return bits


def events_text(bits: int) -> str:
    """The event names of ``bits``, space-separated (``""`` for none)."""
    return " ".join(name for name, e in zip(EVENT_NAMES, Event) if bits & e)


def _event_rules(e, self_drawn, seat, closing):
    """The rules an event must keep, as ``(message, broken)`` pairs: ``e`` the bits, ``self_drawn`` and
    ``closing`` booleans or 0/1, ``seat`` 0-3; scalars or (N,) arrays alike (only ``&``, ``|`` and
    comparisons), so :func:`event_fault` and :func:`event_faults` read one rule.

    A gong's or a flower's replacement tile is self-drawn; a robbed gong's tile, and one that several
    players win on, is a discard; only the dealer
    (the East seat) can win before the first discard, by self-draw; a win is at most one of heavenly,
    earthly and human; ready is declared once (``ready_first`` or ``ready_early``), and declaring it is
    Closing (``closing`` True).
    """
    heavenly = (e & Event.HEAVENLY) != 0
    earthly = (e & Event.EARTHLY) != 0
    human = (e & Event.HUMAN) != 0
    double = (e & Event.DOUBLE_WIN) != 0
    triple = (e & Event.TRIPLE_WIN) != 0
    return (
        ("event after_gong needs a self-drawn win (the gong's replacement tile)",
         ((e & Event.AFTER_GONG) != 0) & (self_drawn == 0)),
        ("event after_flower needs a self-drawn win (the flower's replacement tile)",
         ((e & Event.AFTER_FLOWER) != 0) & (self_drawn == 0)),
        ("events double_win and triple_win need a win on a discard (others win on the same tile)",
         (double | triple) & (self_drawn != 0)),
        ("events double_win and triple_win together (two or three winners, not both)", double & triple),
        ("event robbing_gong needs a win on a discard (the robbed tile)",
         ((e & Event.ROBBING_GONG) != 0) & (self_drawn != 0)),
        ("event heavenly needs a self-drawn win by the dealer (seat E)",
         heavenly & ((self_drawn == 0) | (seat != 0))),
        ("events heavenly, earthly and human: two of them together (one win is one of them)",
         (heavenly & earthly) | (heavenly & human) | (earthly & human)),
        ("events ready_first and ready_early together (ready is declared once)",
         ((e & Event.READY_FIRST) != 0) & ((e & Event.READY_EARLY) != 0)),
        ("events ready_first and ready_early need closing (the declared ready hand)",
         ((e & (Event.READY_FIRST | Event.READY_EARLY)) != 0) & (closing == 0)),
    )


#: The events that need one way of winning: a 16-tile hand whose wins are scored both ways (waits
#: analysis) scores them only that way, so they are never a fault there.
_ONE_WAY = int(Event.AFTER_GONG | Event.ROBBING_GONG | Event.AFTER_FLOWER | Event.DOUBLE_WIN | Event.TRIPLE_WIN)


def event_fault(bits: int, self_drawn: bool | None, seat: int, closing: bool) -> str | None:
    """Why the events ``bits`` cannot happen with this win (the first rule of :func:`_event_rules`
    broken), or None.

    ``self_drawn`` None: a 16-tile hand whose wins are scored both ways (waits analysis), so the
    events that need one way only score that way.
    """
    bits = int(bits)
    if self_drawn is None:
        bits, self_drawn = bits & ~_ONE_WAY, True
    for message, broken in _event_rules(bits, bool(self_drawn), seat, bool(closing)):
        if broken:
            return message
    return None


def checked_events(events, self_drawn: bool | None, seat: int, closing: bool) -> int:
    """The bits of a single call's ``events`` (:func:`parse_events`), checked against its win
    (:func:`event_fault`; ``self_drawn`` None for a hand scored both ways).

    Raises
    ------
    ValueError
        An unknown event name (:func:`parse_events`).
    HandError (a ValueError)
        With code ``BAD_CONTEXT``: an event that cannot happen with the win.
    """
    bits = parse_events(events) if events else 0
    fault = event_fault(bits, self_drawn, seat, closing) if bits else None
    if fault:
        raise HandError(ErrorCode.BAD_CONTEXT, fault)
    return bits


def event_faults(events: np.ndarray, self_drawn: np.ndarray | None, seat: np.ndarray,
                 closing: np.ndarray) -> np.ndarray:
    """``(N,) bool``: the rows whose ``events`` cannot happen with their win (:func:`event_fault`,
    vectorised over a batch's columns; ``self_drawn`` None for 16-tile hands scored both ways), or
    that hold a bit that is no event."""
    e = events.astype(np.int64)
    if self_drawn is None:
        e = e & ~_ONE_WAY
        self_drawn = np.ones(e.shape[0], dtype=np.bool_)
    bad = (e & ~ALL_EVENTS) != 0
    for _, broken in _event_rules(e, self_drawn, seat, closing):
        bad |= broken
    return bad
