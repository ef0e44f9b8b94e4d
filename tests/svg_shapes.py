"""Reading the pictures' SVG in tests: how many shapes an artist drew, by its gid.

A matplotlib artist given ``gid="queens"`` is written as ``<g id="queens">``; a scatter
draws each point as a ``<use>`` of one marker kept in ``<defs>``, a collection of different
shapes each as a ``<path>``. A rasterized artist is painted into an ``<image>`` (with the
rasterized artists next to it) and its group is not written.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, gid: str) -> list[ET.Element]:
    """The <g> elements of the artists with this gid (several: the same gid in several
    axes, or on each bar of a bar chart)."""
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == gid]


def _count(g: ET.Element) -> int:
    uses = list(g.iter(f"{SVG}use"))
    if uses:
        return len(uses)
    defined = {id(p) for d in g.iter(f"{SVG}defs") for p in d.iter(f"{SVG}path")}
    return sum(1 for p in g.iter(f"{SVG}path") if id(p) not in defined)


def shapes(svg: str, gid: str) -> int:
    """The shapes the artists `gid` drew: in each group its <use> elements, else its
    <path> elements outside <defs>; 0 when there is no such artist."""
    return sum(_count(g) for g in groups(svg, gid))


def rasterized(svg: str, gid: str) -> bool:
    """Did the artist `gid` come out rasterized: no group of its own, and an image?"""
    return not groups(svg, gid) and any(True for _ in ET.fromstring(svg).iter(f"{SVG}image"))
