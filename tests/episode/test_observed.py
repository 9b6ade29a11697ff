"""The step record's ``observed`` entry: the marks of the observation and the text a policy sent."""

from __future__ import annotations

from gui_agent.envs.marks import Mark
from gui_agent.episode.observed import observed_info


def test_marks_and_the_policys_text_are_kept_and_pixels_only_keeps_nothing() -> None:
    mark = Mark(number=3, role="push-button", name="Bravo", text="Bravo", x=10, y=20, width=30, height=8)
    seen = observed_info([mark], {"format": "json", "observed": {"observation": "som", "table": "index\ttag\tname\ttext"}})
    assert seen == {"observation": "som", "table": "index\ttag\tname\ttext",
                    "marks": [{"number": 3, "role": "push-button", "name": "Bravo", "text": "Bravo",
                               "x": 10, "y": 20, "width": 30, "height": 8}]}
    assert observed_info(None, {"format": "json"}) == {} and observed_info([], None) == {}
