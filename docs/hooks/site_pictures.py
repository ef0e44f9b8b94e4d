"""The site's pictures, drawn while it is built.

Each picture is one function returning the file's bytes; :data:`PICTURES` names them by
the path the pages embed (``images/NAME``). The games, boards, positions and histograms
are drawn by the library's own ``pictures`` modules (what ``--plot`` saves), from
results the library computes here (site_computed) or from the saved records
(site_tables reads those). The plots of numbers against n are drawn here, on the same
Agg figures (engine.figures), from the same records.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from types import SimpleNamespace

import site_computed
import site_records
import site_tables
from site_tables import Sources

PICTURES: dict[str, Callable[[], bytes]] = {}


def picture(name: str) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    def register(fn: Callable[[], bytes]) -> Callable[[], bytes]:
        PICTURES[name] = fn
        return fn
    return register


def _matplotlib() -> None:
    """Agg (no display), and SVG text kept as text (smaller files, searchable words); a
    fixed hash salt keeps the SVG ids the same from build to build."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "puzzlesearch-docs",
                                "font.family": ["DejaVu Sans", "sans-serif"]})


def _svg(fig) -> bytes:
    from puzzlesearch.engine.figures import svg_text

    return svg_text(fig).encode("utf-8")


def _png(fig, dpi: int = 110) -> bytes:
    from puzzlesearch.engine.figures import close

    out = io.BytesIO()
    try:
        fig.savefig(out, format="png", dpi=dpi, metadata={"Software": None})
    finally:
        close(fig)
    return out.getvalue()


def _figure(width: float, height: float):
    _matplotlib()
    from puzzlesearch.engine.figures import figure

    return figure(width, height)


# ---------------------------------------------------------------------------- from the records


def _whole_ticks(fig):
    """Distances are whole numbers: no tick at 2.5 flips."""
    from matplotlib.ticker import MaxNLocator

    for ax in fig.axes:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig


def _census(label: str, histogram: list[int]) -> SimpleNamespace:
    """A record's histogram in the shape the library's histogram picture reads (a Census)."""
    return SimpleNamespace(puzzle=label, states=sum(histogram), diameter=len(histogram) - 1,
                           histogram=tuple(histogram))


@picture("pancake-histogram.svg")
def pancake_histogram() -> bytes:
    _matplotlib()
    from puzzlesearch.shuffle.pictures import histogram_figure

    hist = site_tables.pancake_histograms(Sources())["13 pancakes"]
    return _svg(_whole_ticks(histogram_figure(_census("13 pancakes (pancake_13.json)", hist), "stacks")))


@picture("burnt-pancake-histogram.svg")
def burnt_histogram() -> bytes:
    _matplotlib()
    from puzzlesearch.shuffle.pictures import histogram_figure

    hist = site_tables.pancake_histograms(Sources())["10 burnt pancakes"]
    return _svg(_whole_ticks(histogram_figure(_census("10 burnt pancakes (layers.json)", hist), "stacks")))


@picture("queens-counts.svg")
def queens_counts() -> bytes:
    src = Sources()
    counts = dict(site_computed.queens_counts())
    for r in src.use("queens.json").rows:
        if r.get("solutions"):
            counts[r["n"]] = (r["solutions"], r["unique"])
    q20 = src.use("queens_n20.json").rows[0]
    counts[20] = (q20["solutions"], q20["unique"])
    for name in site_records.QUEENS_FRONTIER:
        r = src.use(name).rows[0]
        counts[r["n"]] = (r["solutions"], r["unique"])
    ns = [n for n in sorted(counts) if counts[n][0] > 0]
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    ax.plot(ns, [counts[n][0] for n in ns], "o-", color="#4477aa", label="Q(n): all solutions")
    ax.plot(ns, [counts[n][1] for n in ns], "s--", color="#ee6677", label="unique up to symmetry")
    small = max(site_computed.queens_counts())
    ax.axvspan(0.5, small + 0.5, color="#eeeeee", zorder=0, label=f"computed at build (n ≤ {small})")
    ax.set_yscale("log")
    ax.set_xticks(range(1, max(ns) + 1))
    ax.set_xlim(0.5, max(ns) + 0.5)
    ax.set_xlabel("n (board n × n)")
    ax.set_ylabel("boards")
    ax.set_title(f"N-Queens: every n-queens board, n = 1..{max(ns)} (none for n = 2, 3)")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return _svg(fig)


@picture("topswops-f.svg")
def topswops_f() -> bytes:
    src = Sources()
    proven = {n: steps for n, (steps, _) in site_computed.topswops_optimal().items()}
    for r in src.use("topswops.json").rows:
        proven[r["n"]] = r["f(n)"]
    for name in ("topswops_f15.json", "topswops_f16.json"):
        r = src.use(name).rows[0]
        proven[r["n"]] = r["f(n)"]
    bounds = {r["n"]: r["best"] for r in site_tables._long_rows(src)}
    fig = _figure(7, 4.2)
    ax = fig.add_subplot()
    ns = sorted(n for n in proven if proven[n] > 0)  # f(1) = 0 has no place on a log scale
    ax.plot(ns, [proven[n] for n in ns], "o-", color="#4477aa", label="f(n), proven by exhaustive search")
    bs = sorted(bounds)
    ax.plot(bs, [bounds[n] for n in bs], "^", color="#ee6677", markerfacecolor="none",
            label="longest game found by `topswops long` (f(n) ≥ this)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ticks = [2, 4, 8, 16, 32, 64, max(bs)]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_xlim(1.7, max(bs) * 1.15)
    ax.set_xlabel("n (cards)")
    ax.set_ylabel("reversals")
    ax.set_title("Topswops: the longest games")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return _svg(fig)


@picture("survey-periods.svg")
def survey_periods() -> bytes:
    rec = Sources().use("games_survey_3_100000.json")
    games = rec.data["table"]["rows"]
    proven = [g for g in games if g["period"] is not None]
    fig = _figure(7, 4.2)
    ax = fig.add_subplot()
    ax.scatter([g["preperiod"] + 1 for g in proven], [g["period"] for g in proven], s=14, alpha=0.6,
               color="#4477aa", linewidths=0, label=f"{len(proven)} games, period proven")
    points: dict[tuple[int, int], list[str]] = {}  # games with the same period and start share a point
    for g in proven:
        points.setdefault((g["preperiod"] + 1, g["period"]), []).append(g["code"])
    for (x, y), codes in sorted(points.items(), key=lambda kv: -kv[0][0] * kv[0][1])[:3]:
        label = codes[0] + (f" and {len(codes) - 1} more" if len(codes) > 1 else "")
        ax.annotate(label, (x, y), fontsize=8, xytext=(-4, 4), textcoords="offset points", ha="right")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("first heap of the period + 1")
    ax.set_ylabel("period")
    count = rec.data["table"]["count"]
    ax.set_title(f"Octal games 0.d₁d₂d₃ to {count:,} heaps: {len(games) - len(proven)} periods not proven",
                 fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return _svg(fig)


# ---------------------------------------------------------------------------- computed at build


@picture("grundys-values.png")
def grundys_values() -> bytes:
    _matplotlib()
    from puzzlesearch.games.pictures import values_figure

    return _png(values_figure(site_computed.grundys_values()))


@picture("topswops-game.svg")
def topswops_game() -> bytes:
    _matplotlib()
    from puzzlesearch import topswops
    from puzzlesearch.topswops.pictures import game_figure

    steps, decks = site_computed.topswops_optimal()[site_computed.GAME_CARDS]
    return _svg(game_figure(topswops.play(list(decks[0]))))


@picture("queens-board.svg")
def queens_board() -> bytes:
    _matplotlib()
    from puzzlesearch import queens
    from puzzlesearch.queens.pictures import board_figure

    board = next(iter(queens.solutions(site_computed.BOARD_N)))
    return _svg(board_figure(board))


@picture("hanoi-position.svg")
def hanoi_position() -> bytes:
    _matplotlib()
    from puzzlesearch import hanoi
    from puzzlesearch.hanoi.pictures import position_figure

    discs, moves = site_computed.HANOI_DISCS, site_computed.HANOI_MOVES
    position = hanoi.position_after(discs, moves)
    title = f"{discs} discs after {moves} of the {2 ** discs - 1} moves: {position}"
    return _svg(position_figure(position, 3, title))


@picture("hanoi-4-pegs.svg")
def hanoi_four_pegs() -> bytes:
    _matplotlib()
    from puzzlesearch import hanoi
    from puzzlesearch.hanoi.pictures import position_figure

    discs, pegs = site_computed.HANOI_DISCS, 4
    total = hanoi.count(discs, pegs)
    moves = total // 2  # halfway: the smaller discs parked on the spare pegs
    position = hanoi.position_after(discs, moves, pegs)
    title = f"{discs} discs on {pegs} pegs after {moves} of the {total} Frame–Stewart moves: {position}"
    return _svg(position_figure(position, pegs, title))


def draw_all() -> dict[str, bytes]:
    """images/NAME -> the picture's bytes, for every picture."""
    return {f"images/{name}": fn() for name, fn in PICTURES.items()}


__all__ = ["PICTURES", "draw_all"]
