"""The forward kernel for decks past 16 cards (wide_kernel.py): node for node the packed
kernel's tree where both apply, its moves the plain rules' on decks of up to 32 cards,
and past 16 cards the plain-Python search's answer below a prefix."""

import numpy as np
import pytest
from numba import njit

from conftest import load_data
from puzzlesearch.topswops import forward, plain, rules
from puzzlesearch.topswops.bounds import bound_array, first_target
from puzzlesearch.topswops.forward_kernel import Found, forward_kernel
from puzzlesearch.topswops.limits import MAX_FORWARD, check_n
from puzzlesearch.topswops.longdecks import rng_state
from puzzlesearch.topswops.probes import probe
from puzzlesearch.topswops.wide_kernel import _play, wide_kernel

DATA = load_data("topswops")
F = {int(k): v for k, v in DATA["max_steps"]["values"].items()}
NONE = np.zeros(0, np.int8)


def bounds(n):
    return [0] + [F[m] for m in range(1, n)]


def both(n, target, rise, split, prefix=NONE):
    out = []
    for kernel in (forward_kernel, wide_kernel):
        nodes = np.zeros(n + 2, np.int64)
        bound = bound_array(n, bounds(n))
        out.append(Found._make(kernel(n, bound, target, prefix, split, 50_000, nodes, rise)))
    return out


@pytest.mark.parametrize("n", range(1, 12))
@pytest.mark.parametrize("rise", [True, False])
@pytest.mark.parametrize("split", [0, 3])
def test_wide_kernel_walks_the_packed_kernels_tree(n, rise, split):
    target = first_target(bounds(n), n) - (0 if rise else 2)
    packed, wide = both(n, max(target, 0), rise, split)
    assert (wide.best, wide.count, wide.npaths) == (packed.best, packed.count, packed.npaths)
    assert (wide.decks[:wide.count] == packed.decks[:packed.count]).all()
    assert (wide.nodes == packed.nodes).all()
    assert (wide.paths[:wide.npaths] == packed.paths[:packed.npaths]).all()
    if rise and split == 0:
        assert wide.best == F[n]


def test_wide_kernel_below_a_prefix_equals_the_packed_kernel():
    n = 11
    split = both(n, first_target(bounds(n), n), True, 4)[0]
    for prefix in split.paths[: split.npaths: 7]:
        packed, wide = both(n, first_target(bounds(n), n), True, 0, prefix)
        assert (wide.best, wide.count) == (packed.best, packed.count)
        assert (wide.nodes == packed.nodes).all()


@njit(cache=True)
def _steps(deck):
    rows = np.zeros(64, np.int8)
    rows[: len(deck)] = deck
    moves, top = _play(rows, 0, 32, deck[0], 0)
    return moves, top, rows[32:32 + len(deck)].copy()


@pytest.mark.parametrize("n", [2, 16, 17, 23, 31, 32])
def test_wide_moves_are_the_rules_moves(n):
    rng = np.random.default_rng(n)
    for _ in range(200):
        deck = tuple(int(x) for x in rng.permutation(n) + 1)
        moves, top, final = _steps(np.array(deck, np.int8))
        trace = rules.trace(deck)
        assert (moves, top) == (len(trace) - 1, 1)
        assert tuple(final) == trace[-1]


@pytest.mark.parametrize("n", [17, 18, 25])
def test_past_16_cards_the_search_below_a_prefix_is_the_plain_searchs(n):
    # Nodes 7 choices above the leaves, drawn by Knuth's random probes of the tree (bounds
    # f(1..16) from the published table, then 0 for the sizes nobody has solved: a looser
    # bound prunes less, never wrongly); below each, every deck of the subtree reaching a
    # low target, by the kernel and by the plain-Python search
    own = [0] + [F.get(m, 0) if m <= 16 else 0 for m in range(1, n)]
    bound = bound_array(n, own)
    probed = probe(n, bound, 1, 40, rng_state(n))
    depth = n - 8
    prefixes = {tuple(int(x) for x in p[:depth]) for p in probed.paths if p[depth - 1] != 0}
    assert len(prefixes) >= 5
    for prefix in sorted(prefixes)[:5]:
        nodes = np.zeros(n + 2, np.int64)
        wide = Found._make(wide_kernel(n, bound, 1, np.array(prefix, np.int8), 0, 50_000, nodes, True))
        best, decks = plain.forward(n, own, 1, prefix)
        assert best > 0
        assert wide.best == best
        assert sorted(tuple(int(x) for x in d) for d in wide.decks[:wide.count]) == decks
        assert all(rules.steps(d) == best for d in decks)


def test_the_forward_search_takes_decks_up_to_32_cards():
    assert check_n(MAX_FORWARD, "forward") == 32
    with pytest.raises(ValueError, match="n <= 32"):
        check_n(33, "forward")
    assert forward.kernel(16) is forward_kernel
    assert forward.kernel(17) is wide_kernel


def test_undoing_moves_extends_a_16_card_game_to_17_cards():
    # the published optimal 16-card deck's game, from its state with k steps left, with
    # card 17 put under it: every 17-card game through there, by undoing moves; the
    # longest one met replays to its length, and passes through that state
    from puzzlesearch.topswops.backward_kernel import fibonacci_bound
    from puzzlesearch.topswops.bottom_kernel import extend_kernel

    deck16 = tuple(DATA["example_optimal_decks"]["decks"]["16"])
    assert rules.steps(deck16) == F[16]
    k = 60
    best = np.zeros(17, np.int8)
    patterns = np.array([deck16], np.int8)
    longest, most_left, met = extend_kernel(17, patterns, k, 10**6, fibonacci_bound(17), best)
    assert longest > k and met > 1
    deck = tuple(int(x) for x in best)
    filled = iter(sorted(set(range(1, 18)) - set(deck)))
    deck = tuple(x or next(filled) for x in deck)
    assert rules.steps(deck) == longest
    state = rules.trace(deck16)[F[16] - k] + (17,)
    assert state in rules.trace(deck)
