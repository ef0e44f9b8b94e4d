"""`grundy survey`: every short octal code, checked against octal_values, a plain brute
force, published periods, the results store, checkpoints, CSV and bad input."""

from __future__ import annotations

import csv
from dataclasses import replace

import numpy as np
import pytest
from games_naive import octal_naive
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_bad_input, load_data, run_cli
from puzzlesearch.engine.options import RunOptions
from puzzlesearch.engine.paths import device, show
from puzzlesearch.games import octal_survey, octal_values, parse_octal, rules
from puzzlesearch.games.general import ImpartialGame
from puzzlesearch.games.survey import same_values_key, survey_codes, survey_groups

DATA = load_data("games")


def _run(tmp_path, **kw) -> RunOptions:
    return RunOptions(workers=1, store=str(tmp_path / "store.sqlite"), **kw)


def _plain_period(g: list[int], t: int) -> tuple[int, int] | None:
    """The least p (with its least e) the octal periodicity theorem proves from g: g[n + p]
    == g[n] for every e <= n < len(g) - p, and the values reach heap 2e + 2p + t."""
    for p in range(1, len(g) // 2 + 1):
        e = len(g) - p
        while e > 0 and g[e - 1] == g[e - 1 + p]:
            e -= 1
        if 2 * e + 2 * p + t <= len(g) - 1:
            return p, e
    return None


def test_codes_are_every_code_with_up_to_d_digits():
    assert [len(survey_codes(d)) for d in (1, 2, 3)] == [7, 63, 511]
    codes = survey_codes(3)
    assert len(set(codes)) == 511 and codes[:3] == ["0.1", "0.2", "0.3"] and codes[-1] == "0.777"
    assert all(c[-1] != "0" and 3 <= len(c) <= 5 and set(c[2:]) <= set("01234567") for c in codes)


def test_every_row_agrees_with_octal_values(tmp_path):
    s = octal_survey(2, 300, run=_run(tmp_path))
    assert (s.digits, s.count, len(s.rows), s.from_store, s.computed) == (2, 300, 63, 0, 63)
    assert [r.code for r in s.rows] == survey_codes(2)
    for r in s.rows:
        o = octal_values(r.code, 300)
        assert (r.count, r.period, r.preperiod, r.max_value, r.rare_heaps, r.rare_mask, r.source) == (
            300, o.period, o.preperiod, o.max_value, o.rare_heaps, o.rare_mask, "run"), r.code
    assert s.proven == sum(r.period is not None for r in s.rows) and 0 < s.proven < 63
    # codes with equal values were computed once: the rows above are each code's own all the same
    first = {code: group[0] for group in survey_groups(2) for code in group}
    assert [r.same_as for r in s.rows] == [None if first[r.code] == r.code else first[r.code] for r in s.rows]
    assert s.shared == sum(r.same_as is not None for r in s.rows) == 63 - len(survey_groups(2)) > 0


def _values(code: str, count: int) -> np.ndarray:
    """Values by the plain O(n^2) mex over every move."""
    return octal_naive(parse_octal(code).digits, count)


def test_codes_grouped_together_have_equal_values():
    groups = survey_groups(3)
    assert sorted(c for g in groups for c in g) == sorted(survey_codes(3)) and len(groups) < 300
    for group in groups:
        if len(group) > 1:
            first = _values(group[0], 1500)
            for code in group[1:]:
                assert np.array_equal(_values(code, 1500), first), (group[0], code)
    # the rule is not a mere "same first values": these agree on heaps 0..3 and part later
    assert same_values_key("0.6", 3)[2] == same_values_key("0.64", 3)[2]
    assert same_values_key("0.6", 3) != same_values_key("0.64", 3)
    assert not np.array_equal(_values("0.6", 200), _values("0.64", 200))


def test_the_four_digit_groups_have_equal_values():
    """The survey of 4 digits computes each group once: every code of a group has the values of
    the group's first code, by the plain mex to 400 heaps."""
    groups = survey_groups(4)
    assert sorted(c for g in groups for c in g) == sorted(survey_codes(4))
    shared = [g for g in groups if len(g) > 1]
    assert len(shared) > 300 and sum(map(len, shared)) > 3000  # most 4-digit codes share their values
    for group in shared:
        first = _values(group[0], 400)
        for code in group[1:]:
            assert np.array_equal(_values(code, 400), first), (group[0], code)


def twin(code: str) -> str:
    """`code` with every bit flipped that same_values_key says cannot change a value: the 'leave
    one heap' bit (2) of digit k when a split digit j < k has G(k - j) = 0 (splitting n - j
    into k - j and n - k gives the values that move gives), and the 'take the whole heap' bit
    (1) of digit k when heap k has another move to a position of value 0."""
    game = parse_octal(code)
    digits = list(game.digits)
    g = octal_naive(game.digits, len(digits)).tolist()  # heaps 0..t, all a moot bit depends on
    splits = [j for j, d in enumerate(digits) if d & 4]
    for k in range(1, len(digits)):
        others = [g[k - j] for j in range(1, k) if digits[j] & 2]
        others += [g[a] ^ g[k - j - a] for j in splits for a in range(1, (k - j) // 2 + 1)]
        if 0 in others:
            digits[k] ^= 1
        if any(j < k and g[k - j] == 0 for j in splits):
            digits[k] ^= 2
    return f"{digits[0]}." + "".join(map(str, digits[1:]))


def test_codes_made_equal_by_a_moot_bit_have_equal_keys_and_values():
    """Pairs made to have equal keys, every code 0.d1d2d3 and 4.d1d2d3 with its twin: the keys
    agree and so do the values (the plain mex, 600 heaps)."""
    pairs = 0
    for head in "04":
        for code in survey_codes(3):
            a = head + code[1:]
            b = twin(a)
            if parse_octal(b).digits == parse_octal(a).digits:
                continue
            pairs += 1
            assert same_values_key(a, 3) == same_values_key(b, 3), (a, b)
            assert np.array_equal(_values(a, 600), _values(b, 600)), (a, b)
    assert pairs > 300


@settings(max_examples=150, deadline=None)
@given(st.sampled_from("04"), st.lists(st.integers(0, 7), min_size=1, max_size=4),
       st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_equal_keys_mean_equal_values(head, digits, flips):
    """Any code and its twin (equal keys by construction), and the code with some of its 'whole
    heap' and 'one heap' bits flipped at random: equal keys (with T = 4) mean equal values (the
    plain mex, 300 heaps), and different values mean different keys."""
    a = head + "." + "".join(map(str, digits))
    b = twin(a)
    assert same_values_key(a, 4) == same_values_key(b, 4), (a, b)
    assert np.array_equal(_values(a, 300), _values(b, 300)), (a, b)
    c = head + "." + "".join(str(d ^ f) for d, f in zip(digits, flips, strict=False))
    same = np.array_equal(_values(a, 300), _values(c, 300))
    assert same or same_values_key(a, 4) != same_values_key(c, 4), (a, c)


def test_rows_agree_with_a_plain_brute_force_of_the_rules(tmp_path):
    n = 120
    rows = {r.code: r for r in octal_survey(2, n, run=_run(tmp_path)).rows}
    for code in ["0.1", "0.3", "0.4", "0.6", "0.07", "0.15", "0.33", "0.52", "0.77"]:
        game = parse_octal(code)
        engine = ImpartialGame(lambda heap, game=game: rules.octal_options(game, heap))
        g = [engine.grundy(heap) for heap in range(n)]
        proof = _plain_period(g, game.max_take)
        r = rows[code]
        assert r.max_value == max(g), code
        assert (r.period, r.preperiod) == (proof if proof else (None, None)), code
    assert any(rows[c].period is None for c in ("0.6", "0.4", "0.52"))  # the brute force sees both kinds


def test_published_periods(tmp_path):
    rows = {r.code: r for r in octal_survey(3, 300, run=_run(tmp_path)).rows}
    kayles = DATA["grundy_kayles_077"]
    assert (rows["0.77"].period, rows["0.77"].preperiod) == (kayles["period"], kayles["preperiod"])
    # Dawson's Kayles: period 34; its values are Dawson's Chess's shifted by one (A002187)
    chess = DATA["grundy_dawsons_chess_0137"]
    last = max(chess["exceptions"])
    assert (rows["0.137"].period, rows["0.137"].preperiod) == (chess["period"], last + 1)
    dawson = DATA["grundy_dawsons_kayles_007"]
    assert (rows["0.07"].period, rows["0.07"].preperiod) == (dawson["period"], last + 2)
    assert len(rows) == 511


def test_a_longer_survey_recomputes_only_the_games_not_proven(tmp_path, monkeypatch):
    import puzzlesearch.games.survey as mod

    calls: list[tuple[str, int]] = []
    real = mod.octal_values

    def counted(game, count, run):
        calls.append((game.code, count))
        return real(game, count, run)

    monkeypatch.setattr(mod, "octal_values", counted)
    run = _run(tmp_path)
    small = octal_survey(2, 60, run=run)
    groups = survey_groups(2)
    assert sorted(c for c, _ in calls) == sorted(g[0] for g in groups) and small.from_store == 0
    unproven = {r.code for r in small.rows if r.period is None}
    assert unproven and len(unproven) < 63
    calls.clear()
    big = octal_survey(2, 300, run=run)
    # once per group with a game not proven, for the first of them
    firsts = [next(c for c in g if c in unproven) for g in groups if unproven & set(g)]
    assert sorted(c for c, _ in calls) == sorted(firsts) and {n for _, n in calls} == {300}
    assert (big.from_store, big.computed) == (63 - len(unproven), len(unproven))
    for r in big.rows:
        if r.code in unproven:
            assert (r.source, r.count) == ("run", 300)
        else:  # a period proven by 60 values stays proven, the row as it was computed
            assert (r.source, r.count) == ("store", 60)
            before = next(s for s in small.rows if s.code == r.code)
            assert replace(before, source="store") == r
    calls.clear()
    again = octal_survey(2, 200, run=run)  # a smaller count: everything from the store
    assert calls == [] and (again.from_store, again.computed) == (63, 0)
    assert [(r.period, r.preperiod) for r in again.rows] == [(r.period, r.preperiod) for r in big.rows]


def test_worker_processes_give_the_same_rows(tmp_path):
    serial = octal_survey(1, 400, run=_run(tmp_path))
    pool = octal_survey(1, 400, run=RunOptions(workers=2, store=str(tmp_path / "other.sqlite")))
    assert [replace(r, seconds=0) for r in pool.rows] == [replace(r, seconds=0) for r in serial.rows]


def test_a_row_of_another_shape_in_the_store_is_computed_again(tmp_path):
    from puzzlesearch.engine.store import ResultsStore
    from puzzlesearch.games.survey import STORE_PUZZLE

    run = _run(tmp_path)
    with ResultsStore(run.store) as db:
        db.put(STORE_PUZZLE, "0.77", {"count": 10**6, "period": 1}, "octal_values")
    s = octal_survey(2, 300, run=run)
    r = next(r for r in s.rows if r.code == "0.77")
    assert (r.source, r.period, r.preperiod, s.from_store) == ("run", 12, 71, 0)


def test_cli_table_json_and_csv(tmp_path):
    store, out = tmp_path / "s.sqlite", tmp_path / "t.csv"
    r = run_cli("grundy", "survey", "--digits", "1", "--count", "1000", "--store", store, "--csv", out)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split()[:3] == ["code", "period", "preperiod"] and len(lines) == 9
    assert lines[-1].startswith("7 octal games with 1..1 digits to 1,000 heaps: 6 periods proven, "
                                "1 not proven;")
    assert "0.6     not proven by 1,000" in r.out
    j = run_cli("grundy", "survey", "--digits", "1", "--count", "1000", "--store", store, "--json").json()
    assert (j["games"], j["proven"], j["from_store"], j["computed"]) == (7, 6, 7, 0)
    with open(out, newline="") as f:
        table = list(csv.DictReader(f))
    assert [row["code"] for row in table] == [row["code"] for row in j["rows"]]
    for row, want in zip(table, j["rows"], strict=True):
        o = octal_values(row["code"], 1000)
        assert row["period"] == ("" if o.period is None else str(o.period))
        assert row["preperiod"] == ("" if o.preperiod is None else str(o.preperiod))
        assert (int(row["max_value"]), int(row["rare_heaps"]), int(row["rare_mask"])) == (
            o.max_value, o.rare_heaps, o.rare_mask)
        assert row["source"] == "run" and want["source"] == "store"
    s = run_cli("grundy", "survey", "--digits", "1", "--count", "50", "--store", store, "--summary")
    assert s.out.splitlines() == [
        "7 octal games with 1..1 digits to 50 heaps: 6 periods proven, 1 not proven; 7 rows from the "
        "results store, 0 computed (" + s.out.split("(")[-1].strip()]


def test_checkpoint_resumes_and_refuses_another_survey(tmp_path):
    ck = tmp_path / "ck.sqlite"
    args = ("grundy", "survey", "--digits", "1", "--count", "500", "--workers", "1", "--checkpoint", ck,
            "--json")
    first = run_cli(*args, "--store", tmp_path / "a.sqlite")
    assert first.code == 0, first.err
    again = run_cli(*args, "--store", tmp_path / "b.sqlite")  # a fresh store: every row from the checkpoint
    assert again.code == 0 and again.json()["computed"] == 7
    rows = [{k: v for k, v in r.items() if k != "seconds"} for r in first.json()["rows"]]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again.json()["rows"]] == rows
    other = run_cli("grundy", "survey", "--digits", "1", "--count", "600", "--workers", "1",
                    "--checkpoint", ck, "--store", tmp_path / "c.sqlite")
    assert_bad_input(other)
    assert "other parameters" in other.err and '"count":500' in other.err


@pytest.mark.parametrize("args, words", [
    (("--digits", "0"), "--digits must be between 1 and 4"),
    (("--digits", "5"), "--digits must be between 1 and 4"),
    (("--count", "0"), "--count must be between 1 and"),
    (("--count", str(10**9 + 1)), "--count must be between 1 and"),
    (("--count", "100000000", "--memory", "0.3"), "needs"),
    (("--csv", "/nonexistent/x.csv"), "--csv /nonexistent/x.csv"),
    (("--digits", "x"), "--digits"),
])
def test_bad_input_is_one_line(tmp_path, args, words):
    r = run_cli("grundy", "survey", "--store", tmp_path / "s.sqlite", *args)
    assert_bad_input(r)
    assert words in r.err
    assert not (tmp_path / "s.sqlite").exists()  # refused before the store is opened


def test_memory_counts_every_worker(tmp_path):
    # 200,000,000 heaps: 2 bytes a heap, 512 KiB of value arrays and 384 KiB of first rare
    # arrays per game in progress
    base = ("grundy", "survey", "--digits", "1", "--count", "200000000", "--store", tmp_path / "s.sqlite")
    one = run_cli(*base, "--workers", "1", "--memory", "0.3")
    assert_bad_input(one)
    assert "the survey to 200,000,000 heaps on 1 worker needs 382 MiB, more than 307 MiB" in one.err
    two = run_cli(*base, "--workers", "2", "--memory", "0.5")
    assert_bad_input(two)
    assert "on 2 workers needs 765 MiB, more than 512 MiB, the --memory cap" in two.err


def test_a_csv_that_cannot_be_written_after_the_work_is_one_line_and_exit_1(tmp_path, monkeypatch):
    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("puzzlesearch.engine.paths.os.replace", disk_full)  # writable when checked
    csv = tmp_path / "rows.csv"
    r = run_cli("grundy", "survey", "--digits", "1", "--count", "100", "--store", tmp_path / "s.sqlite",
                "--csv", csv)
    assert r.code == 1 and "7 octal games" in r.out
    assert r.err.strip().splitlines() == [
        f"puzzlesearch: no space left on {device(csv)} for {show(csv)}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"]  # no half file, no temporary one


def test_a_game_stops_once_its_period_is_proven(tmp_path, monkeypatch):
    import puzzlesearch.games.survey as mod

    monkeypatch.setattr(mod, "FIRST_HEAPS", 64)
    s = octal_survey(2, 5000, run=RunOptions(workers=1, store=str(tmp_path / "s.sqlite")))
    stopped = 0
    for r in s.rows:
        full = octal_values(r.code, 5000)
        assert (r.period, r.preperiod, r.max_value) == (full.period, full.preperiod, full.max_value), r.code
        if r.period is None:
            assert r.count == 5000
        else:
            assert r.count in (64, 256, 1024, 4096, 5000)
            assert octal_values(r.code, r.count).period == r.period  # proven by the heaps it says
            stopped += r.count < 5000
    assert stopped > 30  # most 2-digit codes are proven early
