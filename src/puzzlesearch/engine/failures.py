"""The two ways a run ends that are neither an answer nor bad input.

- `CheckFailed`: the run computed something that fails one of the checks an exact
  answer must pass: an invariant (Burnside's lemma gives a whole number of classes), two
  methods that must agree, a witness replayed by the plain rules, a checksum of saved
  work. The answer is not returned and nothing goes into the results store: a wrong value
  printed as right, or kept for later runs to build on, is the one failure an exact tool
  must never have. The command line prints one line naming the check and its numbers and
  exits 1.
- `ClusterLost`: the Dask cluster can no longer run the work: its scheduler stopped
  answering, or it has had no worker for a while. Every task finished before is kept in
  the checkpoint; the command line prints one line and exits 75 (EX_TEMPFAIL: try again
  later), and the same command, once the cluster is back, resumes.
"""

from __future__ import annotations


class CheckFailed(Exception):
    """A computed answer failed one of the checks an exact answer must pass.

    An invariant (Burnside's lemma gives a whole number of classes), two methods that
    must agree, a witness replayed by the plain rules, a checksum of saved work. The
    answer is not returned and nothing goes into the results store. The command line
    prints one line naming the check and its numbers and exits 1.

    Args:
        check: The check that failed ("Burnside's lemma", "the two searches agree", ...).
        detail: Its numbers.
    """

    def __init__(self, check: str, detail: str):
        self.check = check
        self.detail = detail
        super().__init__(f"check failed: {check}: {detail}")


class ClusterLost(RuntimeError):
    """The Dask cluster a run was given cannot finish it: its scheduler stopped answering,
    or it has had no worker for a while.

    The message says what was lost, in one line. Every task finished before is kept in
    the checkpoint; the command line exits 75 (try again later), and the same command,
    once the cluster is back, resumes.
    """


__all__ = ["CheckFailed", "ClusterLost"]
