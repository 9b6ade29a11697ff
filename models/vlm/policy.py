"""A transformers VLM as a policy: screenshot(s) and task in, parsed actions out.

Each step the prompt is built by the SFT export's own row builder
(:class:`gui_agent.export.sft.SftEpisode`): the same system prompt, task line, list of
previous actions and last N screenshots a model fine-tuned on our export was trained on.
The reply is parsed by its format's parser (:data:`gui_agent.action_formats.FORMATS`); the
usage of each call (prompt and reply tokens, images, latency) goes into the step record.

Coordinates. ``uitars-v1`` replies are 0..1000 of the screenshot; ``pyautogui`` replies are
pixels of the screenshot. A format whose image size is ``smart_resize`` (``uitars``:
Qwen2.5-VL / UI-TARS-1.5) answers in pixels of the image after the processor's resize, so
its replies are mapped back with the processor's own min/max pixels, and every call checks
that the processor really produced that frame (``image_grid_thw``).
"""

from __future__ import annotations

from pathlib import Path

from gui_agent.action_formats import FORMATS, ActionFormat, SmartResize, format_names
from gui_agent.envs.base import Observation
from gui_agent.episode.format import ActorInfo, EnvInfo, EpisodeMeta, ScreenSize, TaskInfo
from gui_agent.errors import ActionParseError, ModelError
from gui_agent.export.sft import SftEpisode, SftOptions
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.vlm.generation import Generation, generate, to_pil
from gui_agent.models.vlm.loading import LoadedVlm, load_vlm
from gui_agent.models.vlm.settings import ServeSettings, parse_spec, read_settings


class VlmPolicy:
    """Serves a :class:`LoadedVlm` as a :class:`gui_agent.policy.SamplingPolicy`."""

    def __init__(self, vlm: LoadedVlm, settings: ServeSettings | None = None, *, name: str | None = None):
        self.vlm = vlm
        self.settings = settings or ServeSettings()
        self.action_format = self.settings.format or vlm.family.action_format
        servable = format_names(sft=True, parses=True)
        if self.action_format not in servable:
            raise ModelError(f"reply format {self.action_format!r} cannot be parsed; expected one of {', '.join(servable)}")
        self.reply_format = FORMATS[self.action_format]
        self.name = name or f"hf:{vlm.source}"
        self._task: TaskContext | None = None
        self._episode: SftEpisode | None = None

    # -- Policy ---------------------------------------------------------------------------
    def reset(self, task: TaskContext) -> None:
        self._task = task
        self._episode = None  # built at the first observation, which tells the screen size

    def act(self, observation: Observation) -> PolicyOutput:
        output = self._decide(observation, n=1, temperature=None)[0]
        self.accept(observation, output)
        return output

    # -- SamplingPolicy ---------------------------------------------------------------------
    def sample(self, observation: Observation, n: int, *, temperature: float = 1.0) -> list[PolicyOutput]:
        return self._decide(observation, n=n, temperature=temperature)

    def accept(self, observation: Observation, output: PolicyOutput) -> None:
        episode = self._episode_for(observation)
        image = to_pil(observation.screenshot)
        for action in output.actions:
            episode.remember(action, image)

    def prompt(self, observation: Observation) -> tuple[list[dict[str, object]], list[object]]:
        """(messages, images) the model is asked on ``observation``: the SFT row builder's prompt."""
        return self._episode_for(observation).prompt(to_pil(observation.screenshot))

    # -- internals ----------------------------------------------------------------------------
    def _episode_for(self, observation: Observation) -> SftEpisode:
        if self._task is None:
            raise RuntimeError("reset(task) must be called before act()")
        if self._episode is None:
            height, width = observation.screenshot.shape[:2]
            meta = EpisodeMeta(
                episode_id="live",
                created_at="1970-01-01T00:00:00+00:00",
                task=TaskInfo(id=self._task.task_id, instruction=self._task.instruction),
                env=EnvInfo(kind="browser", screen=ScreenSize(width=int(width), height=int(height))),
                actor=ActorInfo(type="policy", name=self.name),
            )
            options = SftOptions(action_format=self.action_format, images=self.settings.images, history=self.settings.history)
            self._episode = SftEpisode(meta, self._task.instruction, options)
        return self._episode

    def _decide(self, observation: Observation, *, n: int, temperature: float | None) -> list[PolicyOutput]:
        messages, images = self.prompt(observation)
        answer = generate(self.vlm, messages, images, max_new_tokens=self.settings.max_new_tokens,
                          num_samples=n, temperature=temperature)
        return self.read(answer, observation)

    def read(self, answer: Generation, observation: Observation) -> list[PolicyOutput]:
        """The parseable replies of ``answer`` (asked on ``observation``) as outputs.

        Raises:
            ActionParseError: no reply parses (the first reply's error).
        """
        height, width = observation.screenshot.shape[:2]
        reader = self._check_frame(answer, width, height)
        outputs: list[PolicyOutput] = []
        failures: list[ActionParseError] = []
        for text in answer.texts:
            try:
                parsed = reader.parse(text, screen_width=width, screen_height=height)
            except ActionParseError as exc:
                failures.append(exc)
                continue
            outputs.append(PolicyOutput(actions=parsed.actions, thought=parsed.thought, usage=answer.usage, raw=text,
                                        info={"format": self.action_format}))
        if not outputs:
            raise failures[0]
        if failures:
            for output in outputs:
                output.info["unparseable_samples"] = len(failures)
        return outputs

    def _check_frame(self, answer: Generation, width: int, height: int) -> ActionFormat:
        """The format to read the replies with: for a smart_resize format, with the processor's
        own bounds, after checking the model saw that frame."""
        if not isinstance(self.reply_format.image_size, SmartResize):
            return self.reply_format
        min_pixels, max_pixels = self.vlm.pixel_bounds()
        served = self.reply_format.with_pixels(min_pixels=min_pixels, max_pixels=max_pixels)
        grid = answer.inputs.get("image_grid_thw")
        if grid is None:
            in_screen_pixels = [name for name in format_names(sft=True, parses=True)
                                if not isinstance(FORMATS[name].image_size, SmartResize)]
            raise ModelError(f"{self.vlm.source}: {self.action_format!r} replies are pixels of the smart_resize'd "
                             "screenshot and need a Qwen2.5-VL style processor that reports image_grid_thw; use format="
                             f"{' or '.join(in_screen_pixels)}")
        patch = int(self.vlm.processor.image_processor.patch_size)
        seen = (int(grid[-1][2]) * patch, int(grid[-1][1]) * patch)
        expected = served.image_frame(width, height)
        if seen != expected:
            raise ModelError(f"{self.vlm.source}: the processor resized the {width}x{height} screenshot to "
                             f"{seen[0]}x{seen[1]}, not smart_resize's {expected[0]}x{expected[1]}; "
                             f"{self.action_format!r} coordinates would be misread")
        return served


def load_vlm_policy(argument: str) -> VlmPolicy:
    """The policy of an ``hf:`` spec's argument: ``PATH_OR_ID[?options]`` (see :mod:`gui_agent.models.vlm.settings`)."""
    source, overrides = parse_spec(argument)
    settings = read_settings(source) if Path(source).is_dir() else ServeSettings()
    settings = settings.merged(overrides)
    vlm = load_vlm(source, family=settings.family, device=settings.device, dtype=settings.dtype)
    return VlmPolicy(vlm, settings, name=f"hf:{argument}")
