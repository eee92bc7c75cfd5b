"""Bounded memos: what a process remembers to save work, never more than a set number of entries.

A memo is a plain dict, read with ``dict.get`` where the hot paths read it; ``remember`` adds an
entry, emptying the memo first when it is full: a hostile input of ever new keys costs a bounded
amount of memory, and an input that repeats a few keys is served from the memo again after a
clear.  (Emptied whole, not one entry at a time: no bookkeeping of ages on the hot paths.)
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V, entries: int) -> V:
    """Keep ``value`` under ``key`` in ``memo`` (emptied first when it holds ``entries``); the
    value, for the caller to return."""
    if len(memo) >= entries:
        memo.clear()
    memo[key] = value
    return value
