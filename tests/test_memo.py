"""``renju_cli.memo.remember``: the bounded memos of the readers, the opening check and reports."""

from __future__ import annotations

from renju_cli.memo import remember


def test_a_full_memo_is_emptied_before_the_next_entry() -> None:
    memo: dict[int, str] = {}
    for k in range(3):
        assert remember(memo, k, str(k), 3) == str(k)
    assert memo == {0: "0", 1: "1", 2: "2"}
    assert remember(memo, 3, "3", 3) == "3"
    assert memo == {3: "3"}  # (emptied whole: a flood of new keys costs at most 3 entries)
    remember(memo, 3, "three", 3)
    assert memo == {3: "three"}
