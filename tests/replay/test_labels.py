"""The labelling rule itself (replay/labels.py), on a judge whose verdicts are known exactly.

The judge is a rule over action sequences, not an environment: these tests pin the
definition (which step is harmful, progress or neutral); the simulator tests check it on
real executions.
"""

from __future__ import annotations

from gui_agent.actions import Action, Click, Done, Type
from replay.labels import FeasibilityCache, label_steps
from replay.perturb import PlannedStep

FOCUS, TEXT, SUBMIT = Click(10, 10), Type("abc"), Click(50, 90)
ORIGINAL = [FOCUS, TEXT, SUBMIT]


def _judge(actions: list[Action]) -> bool:
    """Success iff the field ends holding exactly 'abc' and then submit is clicked once."""
    field, focused = "", False
    for action in actions:
        if action == FOCUS:
            focused = True
        elif isinstance(action, Type) and focused:
            field += action.text
        elif action == Click(0, 0) and focused:  # "select all + delete"
            field = ""
        elif action == SUBMIT:
            return field == "abc"
    return False


def _labels(planned: list[PlannedStep], executed: int | None = None) -> list[str]:
    cache = FeasibilityCache(_judge)
    actions = [p.action for p in planned if not isinstance(p.action, Done)]
    success = _judge(actions)
    count = executed if executed is not None else len(planned) + (0 if planned and isinstance(planned[-1].action, Done) else 1)
    return [v.label for v in label_steps(ORIGINAL, planned, count, success, cache)]


def test_the_original_is_all_progress_and_its_done_too() -> None:
    assert _labels([PlannedStep(a, i) for i, a in enumerate(ORIGINAL)], executed=3) == ["progress"] * 3


def test_the_first_step_after_which_the_rest_cannot_finish_is_harmful() -> None:
    typo = [PlannedStep(FOCUS, 0), PlannedStep(Type("abd"), 1, True), PlannedStep(SUBMIT, 2)]
    assert _labels(typo, executed=3) == ["progress", "harmful", "neutral"]


def test_a_correction_is_progress_and_a_harmless_extra_step_is_neutral() -> None:
    recovery = [PlannedStep(FOCUS, 0), PlannedStep(Type("x"), None, True), PlannedStep(Click(0, 0), None, True),
                PlannedStep(TEXT, 1), PlannedStep(SUBMIT, 2)]
    assert _labels(recovery, executed=5) == ["progress", "harmful", "progress", "progress", "progress"]
    extra = [PlannedStep(FOCUS, 0), PlannedStep(FOCUS, None, True), PlannedStep(TEXT, 1), PlannedStep(SUBMIT, 2)]
    assert _labels(extra, executed=4) == ["progress", "neutral", "progress", "progress"]


def test_stopping_early_is_harmful_and_only_then() -> None:
    early = [PlannedStep(FOCUS, 0), PlannedStep(Done(success=True), None, True)]
    assert _labels(early) == ["progress", "harmful"]
    skipped = [PlannedStep(FOCUS, 0), PlannedStep(SUBMIT, 2)]  # the text never typed: submit ends it wrongly
    assert _labels(skipped, executed=2) == ["progress", "harmful"]


def test_executions_are_memoised_on_the_action_sequence() -> None:
    calls: list[int] = []
    cache = FeasibilityCache(lambda actions: calls.append(1) or _judge(actions))
    typo = [PlannedStep(FOCUS, 0), PlannedStep(Type("abd"), 1, True), PlannedStep(SUBMIT, 2)]
    label_steps(ORIGINAL, typo, 3, False, cache)
    first = len(calls)
    label_steps(ORIGINAL, typo, 3, False, cache)
    assert len(calls) == first == cache.executed
