"""puzzlesearch: exact exhaustive search for classic puzzles and impartial games."""

__version__ = "0.1.0"
