"""Property-based tests: no input makes a reader, the referee or the ruleset loader raise.

Every reader gets arbitrary bytes, token soups of its own syntax and mutants of small valid
records (the mutation operators of ``fuzz/mutate.py``); the loader gets arbitrary text, YAML
token soups and random mappings.  ``fuzz_target`` checks the invariants (a ``Record`` with its
source, bounded moves and board size, every problem a ``parse-error``, the report renders).  The
long run is ``fuzz/mutate.py``; this keeps a few hundred cheap examples in the suite.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz_seeds
import fuzz_target
import mutate

FAST = settings(
    max_examples=25,
    deadline=None,  # speed is measured by fuzz/ and bench/, never asserted here
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,  # the suite is deterministic; fuzz/mutate.py explores
)
SEEDS = fuzz_seeds.own_seeds()
SEED_LIST = sorted(SEEDS.values())
#: Each reader with the seed of its own format (mutants of it reach deep into the reader).
OWN_SEED = {
    "notation": "moves.txt",
    "jsonl": "games.jsonl",
    "diagram": "diagram.board",
    "renjunet": "db.rif",
    "renlib": "lib.lib",
    "sgf": "game.sgf",
    "psq": "game.psq",
    "rec": "game.rec",
    "gomocup-openings": "openings.txt",
    "playok": "game.pgn",
    "pos": "game.pos",
}

token_soup = st.lists(
    st.one_of(st.sampled_from(mutate.TOKENS), st.binary(max_size=6)), max_size=40
).map(b"".join)


def test_every_reader_has_a_seed() -> None:
    assert set(OWN_SEED) == set(fuzz_target.FORMATS)
    for name, seed in OWN_SEED.items():
        # the seed is a clean record of its format, so its mutants start from real structure
        assert fuzz_target.run_input(SEEDS[seed], name) >= 1


@pytest.mark.parametrize("fmt", fuzz_target.FORMATS)
@FAST
@given(data=st.binary(max_size=512))
def test_reader_survives_any_bytes(fmt: str, data: bytes) -> None:
    fuzz_target.run_input(data, fmt)


@pytest.mark.parametrize("fmt", fuzz_target.FORMATS)
@FAST
@given(data=token_soup)
def test_reader_survives_token_soup(fmt: str, data: bytes) -> None:
    fuzz_target.run_input(data, fmt)


@pytest.mark.parametrize("fmt", fuzz_target.FORMATS)
@FAST
@given(rnd=st.randoms(use_true_random=False))
def test_reader_survives_mutants_of_its_format(fmt: str, rnd: random.Random) -> None:
    data = mutate.mutate(SEEDS[OWN_SEED[fmt]], rnd, SEED_LIST)
    fuzz_target.run_input(data, fmt)


@FAST
@given(rnd=st.randoms(use_true_random=False), seed=st.sampled_from(SEED_LIST))
def test_detection_survives_mutants(rnd: random.Random, seed: bytes) -> None:
    # detection runs every sniffer on the head, then the chosen reader
    fuzz_target.run_input(mutate.mutate(seed, rnd, SEED_LIST), None)


# -- the ruleset loader -----------------------------------------------------------------------
yaml_soup = st.lists(
    st.sampled_from(
        [
            b"name: x\n",
            b"extends: renju\n",
            b"extends: ",
            b"board:\n",
            b"  size: ",
            b"26",
            b"27",
            b"-1",
            b"0",
            b"five:\n",
            b"  length: ",
            b"forbidden:\n",
            b"  black: ",
            b"[double-three, overline]",
            b"passes:\n",
            b"  allowed: ",
            b"yes",
            b"null",
            b"~",
            b"end:\n",
            b"  move_limit: ",
            b"opening:\n",
            b"&a ",
            b"*a",
            b"<<: *a\n",
            b"!!str ",
            b"!!python/object:os.system ",
            b"!x ",
            b"[",
            b"]",
            b"{",
            b"}",
            b": ",
            b"- ",
            b"\n",
            b"  ",
            b"'",
            b'"',
            b"\\",
            b"#",
            b"---\n",
            b"...\n",
            b"%YAML 1.1\n",
            b"\t",
            b"\x00",
        ]
    ),
    max_size=40,
).map(b"".join)
json_scalars = st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
ruleset_keys = st.sampled_from(
    ["name", "extends", "board", "five", "forbidden", "passes", "end", "opening", "size",
     "length", "overline", "black", "white", "policy", "allowed", "move_limit", "width"]
)  # fmt: skip
ruleset_like = st.dictionaries(
    ruleset_keys, json_values | st.dictionaries(ruleset_keys, json_values)
)


@FAST
@given(data=st.binary(max_size=512))
def test_loader_survives_any_bytes(data: bytes) -> None:
    fuzz_target.run_ruleset(data)


@FAST
@given(data=yaml_soup)
def test_loader_survives_yaml_soup(data: bytes) -> None:
    fuzz_target.run_ruleset(data)


@settings(FAST, max_examples=8)
@given(mapping=ruleset_like)
def test_loader_survives_random_mappings(mapping: dict[str, object]) -> None:
    # a mapping either is refused with RulesetError or judges a record under it
    fuzz_target.run_ruleset(yaml.safe_dump(mapping).encode())


@settings(FAST, max_examples=8)
@given(mapping=ruleset_like)
def test_loader_survives_mappings_over_a_shipped_ruleset(mapping: dict[str, object]) -> None:
    mapping = {**mapping, "extends": "renju"}
    fuzz_target.run_ruleset(yaml.safe_dump(mapping).encode())
