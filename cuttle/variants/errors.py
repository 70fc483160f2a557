"""What a results file (`cuttle.variants.store`) is refused with, and the check of a
run's `results` argument, atlas and balance alike: `ResultsFileError` (a ValueError:
not a results file, damaged, in use), `OtherFingerprint` (a record whose games this
cuttle plays otherwise), `NothingToReport` (a reading without playing that found no
games of its options), `held_runs` (the runs a file holds, in words)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..formatting import quantity
from ..validation import check_output_path

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .records import ChunkKey

__all__ = ["NothingToReport", "OtherFingerprint", "READ_ONLY", "READ_ONLY_OPTION",
           "ResultsFileError", "check_results", "for_command_line", "held_runs"]

# A reading without playing, as the library's argument and as the commands' option: a
# results file's notes say the library's, and a command says its own instead.
READ_ONLY = "play=False"
READ_ONLY_OPTION = "--report-only"


def for_command_line(note: str) -> str:
    """A results file's note (`Store.notes`) as a command says it: with its option
    where the library's argument is named."""
    return note.replace(READ_ONLY, READ_ONLY_OPTION)


class ResultsFileError(ValueError):
    """A results file that cannot be used (not a balance/atlas file, damaged, in use)."""


class OtherFingerprint(ResultsFileError):
    """A record whose fingerprint (`stamp`, None without one) is not the run's
    (`engine`): `path`, `lineno`, `key`, and `cause`, why: by default another version
    of the engine or policy; an atlas group's run names other variants than the
    file's (`cuttle.variants.run`)."""

    def __init__(self, path: str, lineno: int, key: ChunkKey, stamp: str | None,
                 engine: str, cause: str | None = None):
        self.path, self.lineno, self.key = path, lineno, key
        self.stamp, self.engine = stamp, engine
        self.cause = cause or (f"this chunk was played by another version of the engine "
                               f"or of the {key[2][0]} policy (the games it fingerprints "
                               f"differ from this cuttle's)")
        super().__init__(f"{path}, line {lineno}: {self.cause}; give a new results file to "
                         f"play again, or report what this one holds without playing "
                         f"(--report-only, play=False)")

    def __reduce__(self):           # (unpickled from its fields, not from the message)
        return (type(self), (self.path, self.lineno, self.key, self.stamp, self.engine,
                             self.cause))


def held_runs(runs: Iterable[tuple[str, str, int, int]]) -> str:
    """The runs a results file holds (`Store.runs`), in words: "classic under expert
    self-play, seed 1, chunks of 2,000 games; ..." (the chunk size tells a --quick
    run from a full one)."""
    # (a run of three, without its chunk size, as an OtherSearchError kept them before)
    return "; ".join(f"{base} under {policy} self-play, seed {seed}"
                     + "".join(f", chunks of {quantity(c, 'game')}" for c in chunk)
                     for base, policy, seed, *chunk in runs)


def check_results(results: str | None, play: bool) -> None:
    """The `results` argument of a run (the atlas's, the balance designer's), before
    anything is played: a file to read (play=False needs one) or one to write to
    (`cuttle.validation.check_output_path`); ValueError otherwise."""
    if not play and results is None:
        raise ValueError("play=False reports what a results file holds: give results=PATH")
    if play and results is not None:
        check_output_path(results, "results")


class NothingToReport(ResultsFileError):
    """Reading a results file without playing (play=False, --report-only) found no games
    of the options given: its records are keyed by the options that played them, and
    reading it with other options reports nothing (and running the same call again would
    play nothing either).  `path`: the file; `runs`: the runs it holds (`Store.runs`,
    or the balance designer's); `notes`: what reading it noticed (a last line cut off);
    `held`: the runs in words.  `unscreened`: a balance search's single changes the
    file lacks though it holds the base's: the search space differs (`space`).
    `capped`: those of the runs of the reading's move cap (None: not told), which the
    command line reads with another --quick (`cuttle.cli.options.quick_hint`)."""

    def __init__(self, path: str, runs: list[tuple[str, str, int, int]],
                 notes: Iterable[str] = (), unscreened: Iterable[str] = (),
                 capped: Iterable[tuple[str, str, int, int]] | None = None):
        self.path, self.runs, self.notes = path, list(runs), list(notes)
        self.unscreened = list(unscreened)
        self.capped = None if capped is None else list(capped)
        what = (f"it holds games of {self.held} only" if self.runs
                else "it holds no games at all")
        head = (f"{path} holds no games played with these options (its records are keyed "
                f"by the options that played them; {what})" if not self.unscreened else
                f"{path} holds no games of this search: {self.space}")
        advice = ("" if not self.unscreened else
                  ", or play the new changes into the file (the same call playing)")
        super().__init__(head + "".join(f"; {n}" for n in self.notes)
                         + f": give the options of the run that filled it{advice}")

    def __reduce__(self):           # (unpickled from its fields, not from the message)
        return (type(self), (self.path, self.runs, self.notes, self.unscreened,
                             getattr(self, "capped", None)))

    @property
    def space(self) -> str:
        """Why a search reads nothing from a file of its own run, in words: the
        search space differs (the changes the file lacks, the first few named)."""
        shown = self.unscreened[:6]
        more = len(self.unscreened) - len(shown)
        names = ", ".join(shown) + (f" and {more:,} more" if more else "")
        return (f"it holds the base's games of the first chunk the search screens, but "
                f"not those of {quantity(len(self.unscreened), 'single change')} it "
                f"screens ({names}): the search space differs from that of the run that "
                f"filled it (a flag or a value added to the rules since, or other flags, "
                f"deals or k)")

    @property
    def held(self) -> str:
        """The runs the file holds, in words (`held_runs`)."""
        return held_runs(self.runs)
