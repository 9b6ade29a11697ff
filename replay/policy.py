"""The replay as a policy: the recorded actions, checked against the screen and re-anchored.

:class:`AnchoredReplayPolicy` runs inside the ordinary runner
(:func:`gui_agent.runner.run_episode`), so a replay gets everything an episode gets: the
task's setup, guards, budgets, the written trajectory and the evaluator's verdict. Before
each recorded step it

1. scores the live screen against the recorded keyframe (:mod:`gui_agent.replay.similarity`);
2. for actions with a screen position (click, move, scroll, drag), re-finds the target:
   by the recorded selector (or tag and text) when the step has one (browser recordings,
   :mod:`gui_agent.replay.selector`), or by its element in the live accessibility tree
   (role and name, then role and place: desktop recordings, :mod:`gui_agent.replay.element`),
   else by the recorded patch (:mod:`gui_agent.replay.anchor`);
3. when a click or drag target cannot be placed confidently, first lets the page settle:
   a fast replay can arrive before what the person waited for (an autocomplete menu, an
   animation), so it plays short ``wait`` actions (0.1, 0.3, 0.6 s; recorded in the
   replay), trying the same step again on each new screen; then it refuses (a
   ``done(success=False)`` that ends the episode, with the reason) instead of clicking
   blind (a move or a scroll, which presses nothing, is then played where it was recorded);
4. in timed mode, waits until the recording's own time of the step.

Each step's findings are kept in :attr:`AnchoredReplayPolicy.reports`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from gui_agent.actions import (
    Action,
    Click,
    Done,
    Drag,
    Move,
    Scroll,
    Wait,
    action_to_dict,
)
from gui_agent.envs.base import Observation
from gui_agent.episode import Episode
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.replay.anchor import Anchor, locate
from gui_agent.replay.similarity import screen_similarity

Mode = Literal["fast", "timed"]
#: Finds a recorded target (a step's ``target`` dict) on the live screen: its (x, y) and how
#: it was found (``selector`` or ``text`` on a page, ``element`` or ``element-position`` on a
#: desktop), or None when the target gives it nothing to go by (then the image patch decides).
#: Called with the step's target and the recorded click point.
SelectorLocator = Callable[[dict[str, Any], "tuple[int, int] | None"], "tuple[int, int, str] | None"]
#: Waits (seconds) before a target that is not found yet is given up on, while the screen changes.
SETTLE_WAITS_S = (0.1, 0.3, 0.6)


@dataclass
class StepReport:
    """What the replayer saw and did at one recorded step."""

    index: int
    similarity: float | None
    action: dict[str, Any]
    moved_by: tuple[int, int] | None = None
    anchor: dict[str, Any] | None = None
    refused: str | None = None
    waited_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if self.similarity is not None:
            data["similarity"] = round(self.similarity, 4)
        return data


def _point(action: Action) -> tuple[int, int] | None:
    if isinstance(action, (Click, Move, Scroll)):
        return action.x, action.y
    if isinstance(action, Drag):
        return action.x1, action.y1
    return None


def _moved(action: Action, x: int, y: int) -> Action:
    """``action`` with its point moved to (x, y) (a drag keeps its vector)."""
    if isinstance(action, Drag):
        dx, dy = x - action.x1, y - action.y1
        return dataclasses.replace(action, x1=x, y1=y, x2=action.x2 + dx, y2=action.y2 + dy)
    return dataclasses.replace(action, x=x, y=y)  # type: ignore[type-var]


class AnchoredReplayPolicy:
    """Plays a recorded episode's actions back, re-anchored on the live screen.

    Args:
        episode: the recorded episode.
        actions: the actions to play (default: the episode's, without a trailing done).
        mode: ``fast`` (as fast as the environment settles) or ``timed`` (the recording's pace).
        anchoring: re-find targets (False: play the recorded coordinates blind).
        locate_selector: finds a recorded target on the live screen before the image patch is
            tried (:func:`gui_agent.replay.selector.selector_locator` for a page,
            :func:`gui_agent.replay.element.element_locator` for a desktop's tree).
        frame_origin: where the live screen's (0, 0) is in the recorded keyframes (a browser
            recording of the whole screen, :mod:`gui_agent.replay.viewport`): each keyframe is cut to
            the live screen's size from there, so it compares with, and anchors on, the page.
    """

    name = "replay-anchored"

    def __init__(
        self,
        episode: Episode,
        *,
        actions: list[Action] | None = None,
        mode: Mode = "fast",
        anchoring: bool = True,
        locate_selector: SelectorLocator | None = None,
        frame_origin: tuple[int, int] | None = None,
    ) -> None:
        self.episode = episode
        self.actions = list(actions) if actions is not None else episode.actions()
        while self.actions and isinstance(self.actions[-1], Done):
            self.actions.pop()
        self.mode = mode
        self.anchoring = anchoring
        self.locate_selector = locate_selector
        self.frame_origin = frame_origin
        self.reports: list[StepReport] = []
        self.refused: str | None = None
        self._next = 0
        self._started: float | None = None
        self._frames: dict[int, np.ndarray] = {}
        self._waits = 0  # settle waits played for the current step

    def reset(self, task: TaskContext) -> None:
        self.reports, self.refused, self._next, self._started = [], None, 0, None
        self._waits = 0

    def _recorded_frame(self, index: int, live_shape: tuple[int, ...]) -> np.ndarray | None:
        if index not in self._frames:
            step = self.episode.steps[index] if index < len(self.episode.steps) else None
            if step is None or not step.frame_before:
                return None
            frame = self.episode.load_frame(step.frame_before)
            if self.frame_origin is not None:
                x, y = self.frame_origin
                frame = np.ascontiguousarray(frame[y : y + live_shape[0], x : x + live_shape[1]])
            self._frames[index] = frame
        return self._frames[index]

    def _wait_for_recorded_time(self, index: int) -> None:
        now = time.monotonic()
        if self._started is None:
            self._started = now
        steps = self.episode.steps
        if index >= len(steps) or not steps:
            return
        due = self._started + (steps[index].t - steps[0].t)
        if due > now:
            time.sleep(due - now)

    def act(self, observation: Observation) -> PolicyOutput:
        index = self._next
        if index >= len(self.actions):
            return PolicyOutput(actions=[Done(success=True)], thought="replay: every recorded step was played")
        self._next += 1
        if self.mode == "timed":
            self._wait_for_recorded_time(index)
        action = self.actions[index]
        recorded = self._recorded_frame(index, observation.screenshot.shape)
        similarity = screen_similarity(observation.screenshot, recorded) if recorded is not None else None
        report = StepReport(index=index, similarity=similarity, action={})
        point = _point(action)
        if self.anchoring and point is not None:
            placed = self._place(index, point, recorded, observation.screenshot)
            report.anchor = placed.to_dict()
            if (not placed.confident or placed.x is None or placed.y is None) and isinstance(action, (Move, Scroll)):
                # a wheel turn or a hover over a spot that cannot be re-found: the page scrolls
                # (or nothing is pressed) wherever the pointer is, so play it as recorded
                placed = Anchor(point[0], point[1], True, "as_recorded", placed.score, reason=placed.reason)
            if not placed.confident or placed.x is None or placed.y is None:
                if self._waits < len(SETTLE_WAITS_S):
                    # the page may still be on its way to what the person saw (a menu shown
                    # 300 ms after typing shows no change before it): let it settle
                    seconds = SETTLE_WAITS_S[self._waits]
                    self._waits += 1
                    self._next -= 1
                    return PolicyOutput(actions=[Wait(seconds)],
                                        thought=f"replay step {index}: {placed.reason}; waiting {seconds} s for the page to settle")
                report.waited_s = round(sum(SETTLE_WAITS_S[: self._waits]), 2)
                self._waits = 0
                report.refused = f"step {index}: {placed.reason}" + (
                    f" (after waiting {report.waited_s} s for the page to settle)" if report.waited_s else "")
                report.action = {"kind": "done", "success": False}
                self.reports.append(report)
                self.refused = report.refused
                return PolicyOutput(actions=[Done(success=False)], thought=f"replay refused to act: {report.refused}")
            report.waited_s = round(sum(SETTLE_WAITS_S[: self._waits]), 2)
            self._waits = 0
            if (placed.x, placed.y) != point:
                report.moved_by = (placed.x - point[0], placed.y - point[1])
                action = _moved(action, placed.x, placed.y)
        report.action = action_to_dict(action)
        self.reports.append(report)
        thought = f"replay step {index}" + (f", similarity {similarity:.3f}" if similarity is not None else "")
        if report.moved_by:
            thought += f", re-anchored by {report.anchor['method'] if report.anchor else '?'} {report.moved_by}"
        return PolicyOutput(actions=[action], thought=thought)

    def _place(self, index: int, point: tuple[int, int], recorded: np.ndarray | None, live: np.ndarray) -> Anchor:
        step = self.episode.steps[index] if index < len(self.episode.steps) else None
        target = step.target if step is not None else None
        if self.locate_selector is not None and target:
            found = self.locate_selector(target, point)
            if found is not None:
                return Anchor(found[0], found[1], True, found[2], 1.0)
        if recorded is None:
            return Anchor(point[0], point[1], True, "none", 0.0, reason="no recorded frame; played as recorded")
        return locate(recorded, point[0], point[1], live)
