"""``gui-agent train rl --from hf:MODEL``: a tiny VLM's LoRA adapter learns, from evaluator rewards, which of two taught actions succeeds.

The task is a real browser page with two halves, LEFT and RIGHT, and one step to click
("Click the left button."); the evaluator rewards a click on LEFT. A tiny random Idefics3
is first taught the reply *format* with ``train vlm`` on two unjudged demonstrations of
the same screen, one clicking each half: it then says either click, about half the time
each, so sampled groups hold successes and failures. RL must make the left click the
rule. Measured on the taught prompt, start against the finished run's merged model: the
share of 64 seeded samples that click LEFT (the policy's chance of success, the page
being static) and the probability of each taught reply's tokens; and in the ledger, the
evaluator's success of the rollouts sampled by version 0 against those of versions 4+.
The run is made of two sessions, the second a ``--resume`` of the first.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gui_agent.actions import Click
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.evaluate.eval_helpers import finish
from tests.rl.rl_helpers import jsonl, start_train

pytestmark = pytest.mark.slow

LEFT, RIGHT = (40, 105), (120, 105)
#: The rollouts' sampling temperature; the policy is measured at it too. Below 1, the tokens a
#: tiny random model puts a sliver of mass on (noise of its random vocabulary) stay out.
TEMPERATURE = 0.7
HTML = """<!DOCTYPE html><html><body style="margin:0">
<button id="left" style="position:fixed;left:0;top:0;width:80px;height:210px">LEFT</button>
<button id="right" style="position:fixed;left:80px;top:0;width:80px;height:210px">RIGHT</button>
<script>
window.choice = '';
document.getElementById('left').onclick = () => { window.choice = 'left'; };
document.getElementById('right').onclick = () => { window.choice = 'right'; };
</script></body></html>
"""
TASK = """\
id: test/pick-left
instruction: Click the left button.
environment:
  kind: browser
  url: {url}
  viewport: {{width: 160, height: 210}}
limits: {{max_steps: 1, step_timeout_s: 10, episode_timeout_s: 30}}
"""
EVALUATOR = """\
evaluator:
  js_truthy: {expression: "window.choice === 'left'"}
"""


class ClickAt:
    """A demonstrator that clicks one point."""

    def __init__(self, point: tuple[int, int]) -> None:
        self.name = f"click-at-{point[0]}-{point[1]}"
        self.point = point

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: object) -> PolicyOutput:
        return PolicyOutput(actions=[Click(*self.point)])


def _taught_model(tmp_path: Path) -> tuple[Path, Path]:
    """(the RL task file, a tiny model taught to click either half of its page)."""
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    page = tmp_path / "two-halves.html"
    page.write_text(HTML)
    task = TASK.format(url=page.as_uri())
    (tmp_path / "demo.yaml").write_text(task)  # no evaluator: the demonstrations are unjudged, both kept
    task_file = tmp_path / "pick-left.yaml"
    task_file.write_text(task + EVALUATOR)
    for point in (LEFT, RIGHT):
        result = run_episode(load_task(tmp_path / "demo.yaml"), ClickAt(point), out_dir=tmp_path / "demos", seed=0)
        assert result.steps == 1 and not result.success
    model = tmp_path / "model"
    report = train_vlm(TrainConfig(inputs=(str(tmp_path / "demos"),), out=str(model), model="tiny:idefics3",
                                   epochs=40, lr=3e-3, threads=1))
    assert report.rows == 2 and report.action_format == "pyautogui"
    return task_file, model


def _measure(model: Path, demos: Path, adapter: Path | None) -> tuple[dict[str, float], float]:
    """Under the model (with ``adapter``) at :data:`TEMPERATURE`, on the taught prompt: P(reply)
    of each demonstrated reply, and the share of 64 sampled replies (seeded) that click LEFT:
    the page never changes, so that is the policy's chance of success."""
    import torch

    from gui_agent.action_formats import FORMATS
    from gui_agent.errors import ActionParseError
    from gui_agent.export.sft import SftOptions
    from gui_agent.models.rl.vlm_tokens import VlmStep, action_logits, sequence_logp, token_ids
    from gui_agent.models.vlm.generation import generate
    from gui_agent.models.vlm.loading import load_vlm
    from gui_agent.models.vlm.sft_data import rows_from_episodes

    vlm = load_vlm(str(model), device="cpu", local_files_only=True)
    if adapter is not None:
        from peft import PeftModel

        vlm.model = PeftModel.from_pretrained(vlm.model, str(adapter)).eval()
    probabilities = {}
    rows = rows_from_episodes([demos], SftOptions(action_format="pyautogui")).rows
    for row in rows:
        reply = row["messages"][-1]["content"][0]["text"]
        ids = vlm.tokenizer(vlm.family.reply_prefix + reply + vlm.family.end_of_turn, add_special_tokens=False)["input_ids"]
        step = VlmStep(messages=row["messages"][:-1], images=list(row["images"]), tokens=ids, logp=0.0, version=0)
        with torch.no_grad():
            logits = action_logits(vlm, vlm.model, step, TEMPERATURE)
            probabilities[reply] = math.exp(float(sequence_logp(logits, token_ids(step, logits.device))))
    torch.manual_seed(0)
    answer = generate(vlm, rows[0]["messages"][:-1], list(rows[0]["images"]), max_new_tokens=24, num_samples=64, temperature=TEMPERATURE)
    left = 0
    for text in answer.texts:
        try:
            actions = FORMATS["pyautogui"].parse(text, screen_width=160, screen_height=210).actions
        except ActionParseError:
            continue
        left += isinstance(actions[0], Click) and actions[0].x < 80
    return probabilities, left / len(answer.texts)


def test_rl_raises_the_success_of_a_tiny_vlm_on_a_taught_task(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    task_file, model = _taught_model(tmp_path)
    before, left_before = _measure(model, tmp_path / "demos", None)
    left = next(reply for reply in before if f"({LEFT[0]}, {LEFT[1]})" in reply)
    right = next(reply for reply in before if f"({RIGHT[0]}, {RIGHT[1]})" in reply)
    assert 0.2 < before[left] < 0.8 and 0.2 < before[right] < 0.8, before  # a coin between two well-formed clicks
    assert 0.2 < left_before < 0.8, left_before

    out = tmp_path / "rl"
    # Full-batch steps (--minibatch 8 = two groups of 4): the group-centred advantages cancel
    # on the tokens every reply shares, so only the choice between the clicks moves.
    common = [str(task_file), "--from", f"hf:{model}?max_new_tokens=24", "--lora-rank", "8", "--lr", "3e-3",
              "--entropy-coef", "0", "--temperature", str(TEMPERATURE), "--group-size", "4", "--groups-per-update", "2",
              "--minibatch", "8", "--out", str(out), "--quiet"]
    for updates, extra in ((3, []), (6, ["--resume"])):
        proc = start_train([*common, "--updates", str(updates), *extra], private_tmp)
        kill_on_exit.append(proc)
        code, text = finish(proc, timeout_s=300)
        assert code == 0 and f"finished: {updates} updates" in text, text

    state = json.loads((out / "policy" / "rl_state.json").read_text())
    updates = jsonl(out / "updates.jsonl")
    assert state["rl"]["update"] == 6 and [u["update"] for u in updates] == [1, 2, 3, 4, 5, 6]
    assert state["rl"]["version"] == sum(1 for u in updates if u["decisions"]) >= 4
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["resumed"] for s in sessions] == [False, True]
    assert (out / "checkpoints" / "update-000006" / "adapter_model.safetensors").is_file()

    # The finished run's merged model is the trained policy (--policy hf:OUT/model serves it).
    after, left_after = _measure(out / "model", tmp_path / "demos", None)
    with_adapter, _ = _measure(model, tmp_path / "demos", out / "policy")
    assert abs(with_adapter[left] - after[left]) < 1e-3, (with_adapter, after)
    scored = [r for r in jsonl(out / "ledger.jsonl") if r["success"] is not None]
    rate = lambda rows: sum(r["success"] for r in rows) / len(rows)  # noqa: E731
    start, late = [r for r in scored if r["version"] == 0], [r for r in scored if r["version"] >= 4]
    print(f"sampled replies clicking LEFT {left_before:.2f} -> {left_after:.2f}; P(left reply) {before[left]:.3f} -> "
          f"{after[left]:.3f}; P(right reply) {before[right]:.3f} -> {after[right]:.3f}; evaluator success of the "
          f"{len(start)} rollouts of version 0 {rate(start):.2f}, of the {len(late)} of versions 4+ {rate(late):.2f}")
    assert left_after >= left_before + 0.25, (left_before, left_after)
    assert after[left] > before[left] and after[right] < before[right] / 2, (before, after)
    assert rate(late) >= rate(start) + 0.2, (rate(start), rate(late))
