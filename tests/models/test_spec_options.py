"""One parser for the ``?key=value`` options of every policy and judge spec (models/spec_options.py)."""

from __future__ import annotations

import pytest

from gui_agent.errors import ModelError
from gui_agent.registry import load_policy
from gui_agent.models.reward.judge import check_judge
from gui_agent.models.spec_options import number, one_of, parse_spec, text, whole


@pytest.mark.parametrize("spec, message", [
    ("openai:gpt-4o?images=0", "openai:gpt-4o: images must be at least 1, got '0'"),
    ("hf:runs/vlm?images=0", "hf:runs/vlm: images must be at least 1, got '0'"),
    ("judge hf:runs/vlm?max_new_tokens=0", "hf:runs/vlm: max_new_tokens must be at least 1, got '0'"),
    ("anthropic:claude-sonnet-4-5?images=many", "anthropic:claude-sonnet-4-5: images must be a whole number, got 'many'"),
    ("openai:gpt-4o?temperature=-1", "openai:gpt-4o: temperature must be a number >= 0, got '-1'"),
    ("hf:runs/vlm?format=", "hf:runs/vlm: format needs a value, got ''"),
    ("openai-cua:computer-use-preview?display=wide", "display must be WIDTHxHEIGHT, e.g. 1280x800, got 'wide'"),
    ("hf:runs/vlm?colour=red", "hf:runs/vlm: unknown option 'colour'; expected one of device, dtype, family, format"),
    ("judge hf:runs/vlm?vote=3", "hf:runs/vlm: unknown judge option 'vote'; expected one of device, dtype, family"),
])
def test_every_spec_refuses_a_bad_option_in_the_same_words(spec: str, message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused while the spec is read: no model is loaded, no request sent."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    with pytest.raises(ModelError) as caught:
        if spec.startswith("judge "):
            check_judge(spec.removeprefix("judge "))
        else:
            load_policy(spec)
    assert message in str(caught.value)


def test_a_spec_without_a_source_says_what_to_give() -> None:
    with pytest.raises(ModelError, match="^hf: needs a model folder"):
        parse_spec("hf", "?images=2", {"images": whole(1)}, missing="needs a model folder")


def test_the_value_parsers() -> None:
    options = {"n": whole(0), "x": number(0, above=True), "name": text, "mode": one_of("fast", "slow")}
    source, values = parse_spec("p", "m?n=0&x=0.5&name=a&mode=slow&n=3", options, missing="-")
    assert source == "m" and values == {"n": 3, "x": 0.5, "name": "a", "mode": "slow"}  # the last n wins
    for query, reason in [("x=0", "x must be a number > 0"), ("x=inf", "x must be a number > 0"), ("x=a", "x must be a number"),
                          ("n=-1", "n must be at least 0"), ("mode=quick", "mode must be one of fast, slow")]:
        with pytest.raises(ModelError, match=f"^p:m: {reason}, got"):
            parse_spec("p", f"m?{query}", options, missing="-")
    with pytest.raises(ModelError, match="^p:m: no secrets here$"):
        parse_spec("p", "m?token=1", options, missing="-", refused={"token": "no secrets here"})


def test_the_tables_of_hf_policies_and_judges_cover_their_settings() -> None:
    from dataclasses import fields

    from gui_agent.models.reward.judge import OPTIONS as JUDGE_OPTIONS
    from gui_agent.models.reward.judge import VlmJudgeSettings
    from gui_agent.models.vlm.settings import OPTIONS, ServeSettings

    assert sorted(OPTIONS) == sorted(f.name for f in fields(ServeSettings))
    assert sorted(JUDGE_OPTIONS) == sorted(f.name for f in fields(VlmJudgeSettings))
