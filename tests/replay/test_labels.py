"""The labelling rule itself (replay/labels.py), on a judge whose verdicts are known exactly.

The judge is a rule over action sequences, not an environment: these tests pin the
definition (which step is harmful, progress or neutral); the simulator tests check it on
real executions.
"""

from __future__ import annotations

from gui_agent.actions import Action, Click, Done, Type
from gui_agent.replay.labels import FeasibilityCache, label_steps
from gui_agent.replay.perturb import PlannedStep

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


def test_a_step_a_person_marked_as_a_mistake_is_harmful_wherever_it_is_carried_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from gui_agent.episode import apply_edit, read_episode
    from gui_agent.replay.labels import StepVerdict, marked_mistakes, with_mistakes
    from tests.synthetic_episodes import write_synthetic

    folder = write_synthetic(tmp_path, "ep", ORIGINAL)
    assert marked_mistakes(read_episode(folder)) == frozenset()
    apply_edit(folder, {"op": "mistake", "step": 1}, by="reviewer")
    mistakes = marked_mistakes(read_episode(folder))
    assert mistakes == {1}
    # the replay of the source: every step progress but the marked one
    planned = [PlannedStep(a, i) for i, a in enumerate(ORIGINAL)]
    verdicts = with_mistakes([StepVerdict("progress", True, True)] * 4, planned, mistakes)
    assert [(v.label, v.mistake) for v in verdicts] == [("progress", False), ("harmful", True), ("progress", False),
                                                        ("progress", False)]
    assert verdicts[1].reward == 0.0
    # a variant: the step carrying out original step 1 (moved to 0 here) is the marked one, a foreign step is not
    swapped = [PlannedStep(TEXT, 1, changed=True), PlannedStep(FOCUS, 0, changed=True), PlannedStep(Click(0, 0), None),
               PlannedStep(SUBMIT, 2)]
    cache = FeasibilityCache(_judge)
    labelled = with_mistakes(label_steps(ORIGINAL, swapped, 5, False, cache), swapped, mistakes)
    assert [v.mistake for v in labelled] == [True, False, False, False, False]
    assert labelled[0].label == "harmful"
