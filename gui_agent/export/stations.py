"""An annotation station's DATASET in an export: only what its reviewers accepted goes out.

``gui-agent annotate --out DATASET`` writes episodes into DATASET and its progress into
``DATASET/station.json``. All the core knows of a station is that a folder holding that
file is one (the station package, which imports the core, owns the file's schema), and
that a reviewer's decision is in each episode's own ``labels.review``
(``{"decision": "accepted" | "rejected", "by", "notes", "at"}``). The episode is the source
of truth rather than ``station.json``: the station writes the queue first and the episode
second, so a station killed between the two leaves an episode that reads as not reviewed
and stays out, never one exported against a reviewer's will; and an episode copied to
another DATASET carries its decision with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gui_agent.episode import EpisodeMeta
from gui_agent.episode.labels import REVIEW

#: The progress file that makes a folder a station's DATASET (``gui_agent.station.queue.PROGRESS_FILE``).
STATION_FILE = "station.json"

Decision = Literal["accepted", "rejected", "unreviewed"]


def is_station_dataset(folder: Path) -> bool:
    """True for a folder holding a station's progress file."""
    return (folder / STATION_FILE).is_file()


def review_decision(meta: EpisodeMeta) -> Decision:
    """What a reviewer decided about this episode; anything but a well-formed decision is ``unreviewed``."""
    review = REVIEW.get(meta.labels)
    decision = review.get("decision") if review is not None else None
    return decision if decision in ("accepted", "rejected") else "unreviewed"


@dataclass
class StationTally:
    """What one station DATASET gave an export, for its summary line."""

    dataset: Path
    include_unreviewed: bool = False
    accepted: int = 0  # exported
    unreviewed_exported: int = 0  # with include_unreviewed
    rejected: int = 0
    unreviewed: int = 0  # skipped
    damaged: int = 0  # chosen but unusable (listed with the other skipped episodes)
    copies: int = 0  # identical copies of an episode exported from another folder

    def count(self, *, exported: bool, reviewed: bool) -> None:
        """Count one episode chosen in the first pass, once the second has tried to export it."""
        if not exported:
            self.damaged += 1
        elif reviewed:
            self.accepted += 1
        else:
            self.unreviewed_exported += 1

    @property
    def exported(self) -> int:
        return self.accepted + self.unreviewed_exported

    def line(self) -> str:
        """E.g. ``station dataset vm1/ann: 4 accepted exported, 1 rejected, 2 not reviewed skipped``."""
        exported = f"{self.accepted} accepted"
        if self.include_unreviewed:
            exported += f" and {self.unreviewed_exported} not reviewed"
        left = [f"{self.rejected} rejected"]
        if not self.include_unreviewed:
            left.append(f"{self.unreviewed} not reviewed")
        if self.damaged:
            left.append(f"{self.damaged} unusable")
        text = f"station dataset {self.dataset}: {exported} exported, {', '.join(left)} skipped"
        if self.copies:
            text += f"; {self.copies} cop{'y' if self.copies == 1 else 'ies'} of episodes also found elsewhere, exported once"
        return text

    def nothing_chosen(self) -> str:
        """Why nothing of this DATASET was exported, and what to do."""
        counts = [f"{self.rejected} rejected", f"{self.unreviewed} not reviewed"]
        if self.damaged:
            counts.append(f"{self.damaged} unusable")
        hint = "a reviewer accepts episodes on the station's review page"
        if self.unreviewed:
            hint += ", or pass --include-unreviewed to export the ones not reviewed"
        return f"station dataset {self.dataset}: no accepted episode to export ({', '.join(counts)}); {hint}"
