"""Splitting a search into independent subproblems.

A depth-first search splits naturally at its top levels: each node a few levels down is
the root of an independent subtree, i.e. a task. ``split`` expands the search tree breadth
first, one whole level at a time, until a level has enough nodes for balance: subtrees
differ wildly in size, and many small tasks (some fifty a worker) let the workers even out.

The split must depend only on the problem, never on the number of workers: then every
way of running gives the same tasks, a checkpoint can be resumed with other ``--workers``
or on a cluster, and results are identical across all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

Node = TypeVar("Node")


def split(root: Node, children: Callable[[Node], Iterable[Node]], at_least: int) -> list[Node]:
    """The first level of the tree below ``root`` with at least ``at_least`` nodes.

    Nodes are in depth-first order (children in the order ``children`` gives them), so
    the tasks run in the order a serial search would meet them. A node without children
    stays in the list as it is (a complete leaf, or a dead end for the task to confirm).
    Stops early, with fewer nodes, when no node has children left.

    Args:
        root: The root of the search tree.
        children: The children of a node, in the order a serial search visits them.
        at_least: How many nodes (tasks) the level should hold.

    Returns:
        The nodes of that level, each the root of one task.
    """
    level = [root]
    while len(level) < at_least:
        below: list[Node] = []
        grew = False
        for node in level:
            kids = list(children(node))
            if kids:
                below.extend(kids)
                grew = True
            else:
                below.append(node)
        if not grew:
            break
        level = below
    return level
