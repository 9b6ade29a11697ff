"""``--policy openai:MODEL``: any vision-language model behind an OpenAI-compatible chat API.

vLLM, SGLang, TGI, ``transformers serve``, Ollama and OpenAI itself all answer
``POST {base_url}/chat/completions``. The prompt is the one the ``hf:`` policy and the SFT
export build (:class:`gui_agent.export.sft.SftEpisode`: system prompt, task, previous
actions, the last N screenshots), so a model fine-tuned on our export is asked what it was
trained on, whether it runs in-process or on a GPU box; screenshots go as base64 PNG
``image_url`` parts.

Reply formats (``format=``):

==============  ===============================================================  ==========
format          the model writes                                                 coordinates
==============  ===============================================================  ==========
``uitars-v1``   UI-TARS ``Thought: ... Action: click(start_box='(x,y)')``        0..1000 of the screenshot
``uitars``      the same, UI-TARS-1.5 / Qwen2.5-VL                               pixels of the smart_resize image
``pyautogui``   ``Action: pyautogui.click(x, y)`` (OpenCUA, Idefics3/SmolVLM)    screenshot pixels
``json``        a tool call of one of the canonical actions (general models:     screenshot pixels
                GPT-4o, Llama...), schemas from :mod:`gui_agent.actions`
``qwen2.5``     Qwen's own ``computer_use`` tool call (``<tool_call>{...}``),     pixels of the smart_resize image
                as Qwen2.5-VL is prompted in Qwen's cookbooks
``qwen3``       the same, as Qwen3-VL is prompted                                0..1000 of the screenshot
``opencua``     OpenCUA-7B/32B: thought, then ``pyautogui`` code                 pixels of the smart_resize image
==============  ===============================================================  ==========

Each format is its record in :data:`gui_agent.action_formats.FORMATS` (those that parse):
its system prompt (the models' own for ``qwen2.5``, ``qwen3`` and ``opencua``), the tools a
request declares (``json``), its parser and its image size. The user turn is the task, the
previous actions and the screenshot(s), for every format. ``observation=`` picks what of a
desktop observation is sent, as OSWorld's baseline agent does: the screenshot (default),
the accessibility tree's table instead of it or beside it, or the set-of-marks screenshot
with its table of marks (:mod:`gui_agent.models.http.observation_modes`).

For the smart_resize formats (``uitars``, ``qwen2.5``, ``opencua``) the screenshot is resized
to its frame *before* it is sent (``min_pixels``/``max_pixels`` as the server's processor has
them; by default the model's own), so the server's processor has nothing left to resize and
the model's pixels map back exactly. UI-TARS replies are parsed as the models write them
(full-width punctuation after a Chinese prompt included:
:func:`gui_agent.action_formats.parse_uitars`).

When the server says the prompt is longer than its context, the oldest screenshot is
dropped and the call made again, down to one screenshot; the number sent is recorded.

OpenAI's reasoning models (the o-series, the GPT-5 family but ``gpt-5-chat``) take other
parameters than chat models, as OpenAI's API reference says: the reply's length as
``max_completion_tokens`` (it counts the hidden reasoning tokens too, so the default is
larger), and no ``temperature`` unless the spec gives one; ``reasoning_effort=`` is sent
when the spec gives it. Every other model (self-hosted servers included) gets
``max_tokens`` and ``temperature``, which every OpenAI-compatible server takes.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from gui_agent.action_formats import FORMATS, ToolCall, format_names
from gui_agent.actions import Action
from gui_agent.envs.base import Observation
from gui_agent.episode.format import ActorInfo, EnvInfo, EpisodeMeta, ScreenSize, TaskInfo
from gui_agent.errors import ModelError, PolicyRequestError
from gui_agent.export.sft import SftEpisode, SftOptions
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.http.calls import ContextTooLong, UnexpectedAnswer, call_with_retries, classify_sdk_error, require_fields, within_deadline
from gui_agent.models.http.concurrency import EndpointSlots
from gui_agent.models.http.observation_modes import OBSERVATION_MODES, observation_mode, seen, with_text
from gui_agent.models.http.pricing import metered_usage
from gui_agent.models.http.settings import Endpoint, endpoint_from, parse_spec
from gui_agent.models.spec_options import Options, number, one_of, text, whole

#: Values of ``reasoning_effort`` that OpenAI's reasoning models take (each model a subset).
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
#: Options of ``openai:`` besides the common ones (:mod:`gui_agent.models.http.settings`).
OPTIONS: Options = {
    "format": text, "images": whole(1), "history": whole(0), "max_tokens": whole(1), "temperature": number(0),
    "reasoning_effort": one_of(*REASONING_EFFORTS), "min_pixels": whole(1), "max_pixels": whole(1),
    "observation": observation_mode,
}
#: Model families that are OpenAI reasoning models (by the id's start, after any vendor
#: prefix), and the chat models among their names that are not.
REASONING_FAMILIES = ("o1", "o3", "o4", "gpt-5")
NOT_REASONING = ("gpt-5-chat",)
#: Longest reply by default: a chat model's, and a reasoning model's, whose limit counts its
#: hidden reasoning too (OpenAI's reasoning guide suggests reserving 25,000 tokens).
DEFAULT_MAX_TOKENS = 256
DEFAULT_MAX_REASONING_TOKENS = 25_000


def is_reasoning_model(model: str) -> bool:
    """Whether ``model`` is one of OpenAI's reasoning models (``o3``, ``o4-mini``, ``gpt-5-mini``...)."""
    name = model.rsplit("/", 1)[-1].lower()
    return name.startswith(REASONING_FAMILIES) and not name.startswith(NOT_REASONING)



def png_data_url(image: Any) -> str:
    """A PIL image as a ``data:image/png;base64,...`` URL (lossless: the model sees our pixels)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def chat_messages(messages: list[dict[str, Any]], images: list[Any]) -> list[dict[str, Any]]:
    """SFT-style messages (``{"type": "image"}`` placeholders, images apart) as OpenAI chat messages."""
    pending = iter(images)
    converted = []
    for message in messages:
        parts = []
        for part in message["content"]:
            if part["type"] == "image":
                parts.append({"type": "image_url", "image_url": {"url": png_data_url(next(pending))}})
            else:
                parts.append({"type": "text", "text": part["text"]})
        if message["role"] == "system":  # plain text: every server takes a string system turn
            converted.append({"role": "system", "content": "\n".join(p["text"] for p in parts)})
        else:
            converted.append({"role": message["role"], "content": parts})
    return converted


def drop_oldest_image(messages: list[dict[str, Any]], images: list[Any]) -> tuple[list[dict[str, Any]], list[Any]]:
    """The prompt with its oldest screenshot taken out (SFT-style messages)."""
    dropped = False
    shorter = []
    for message in messages:
        content = []
        for part in message["content"]:
            if part["type"] == "image" and not dropped:
                dropped = True
                continue
            content.append(part)
        shorter.append({**message, "content": content})
    return shorter, images[1:]


class OpenAIChatPolicy:
    """A model behind an OpenAI-compatible chat endpoint as a :class:`gui_agent.policy.Policy`.

    Args:
        model: the model name the server knows.
        endpoint: URL, key, retries, concurrency, price (see :mod:`gui_agent.models.http.settings`).
        action_format: a registered format that parses (``format_names(parses=True)``).
        images, history: screenshots and previous actions per prompt.
        max_tokens: longest reply (None: 256, or 25,000 for a reasoning model).
        temperature: sampling temperature (None: 0, and none sent to a reasoning model).
        reasoning_effort: sent as ``reasoning_effort`` (None: not sent, the model's default).
        min_pixels, max_pixels: the server processor's smart_resize bounds, for the formats
            that resize (None: the model's own defaults, the format's).
        observation: what the model gets of an observation, as OSWorld's agents do
            (:mod:`gui_agent.models.http.observation_modes`): ``screenshot`` (default),
            ``a11y_tree``, ``screenshot+a11y_tree`` or ``som``.
        client: an ``openai.OpenAI`` client to use instead of building one.
    """

    def __init__(
        self,
        model: str,
        *,
        endpoint: Endpoint,
        action_format: str = "uitars",
        images: int = 1,
        history: int = 5,
        max_tokens: int | None = None,
        temperature: float | None = None,
        reasoning_effort: str | None = None,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        observation: str = "screenshot",
        client: Any = None,
    ) -> None:
        if action_format not in format_names(parses=True):
            raise ModelError(f"openai:{model}: format={action_format!r}; expected one of {', '.join(format_names(parses=True))}")
        if observation not in OBSERVATION_MODES:
            raise ModelError(f"openai:{model}: observation={observation!r}; expected one of {', '.join(OBSERVATION_MODES)}")
        self.observation = observation
        self.model = model
        self.endpoint = endpoint
        self.action_format = action_format
        self.reply_format = FORMATS[action_format].with_pixels(min_pixels=min_pixels, max_pixels=max_pixels)
        self.images = images
        self.history = history
        self.reasoning = is_reasoning_model(model)
        self.max_tokens = max_tokens or (DEFAULT_MAX_REASONING_TOKENS if self.reasoning else DEFAULT_MAX_TOKENS)
        self.temperature = temperature if temperature is not None or self.reasoning else 0.0
        self.reasoning_effort = reasoning_effort
        self.name = f"openai:{model}"
        self._client = client if client is not None else _client(endpoint)
        self._slots = EndpointSlots(str(self._client.base_url), endpoint.max_concurrent) if endpoint.max_concurrent else None
        self._task: TaskContext | None = None
        self._episode: SftEpisode | None = None

    @property
    def base_url(self) -> str:
        """Where the requests go (the SDK's default when neither the spec nor the environment names one)."""
        return str(self._client.base_url)

    # -- Policy ---------------------------------------------------------------------------
    def reset(self, task: TaskContext) -> None:
        self._task = task
        self._episode = None  # built at the first observation, which tells the screen size

    def act(self, observation: Observation) -> PolicyOutput:
        from PIL import Image

        view = seen(observation, self.observation, action_format=self.action_format)
        screen = Image.fromarray(observation.screenshot if view.screenshot is None else view.screenshot)
        episode = self._episode_for(screen.width, screen.height)
        sent = self._frame(screen)
        messages, images = with_text(*episode.prompt(sent), view)
        failed = 0
        while True:
            try:
                answer = call_with_retries(
                    lambda: self._send(messages, images), classify=lambda exc: classify_sdk_error(exc, _sdk(), secrets=(self.endpoint.api_key,)),
                    policy=self.endpoint.retry, what=f"the model server at {self._client.base_url}",
                )
                break
            except ContextTooLong as exc:
                if len(images) <= 1:
                    raise PolicyRequestError(f"the model server says the prompt is too long even with one screenshot: {exc}") from None
                messages, images = drop_oldest_image(messages, images)
                failed += exc.failed_requests
        response = answer.value
        choice = response.choices[0]  # there is one: _send checked it
        usage = getattr(response, "usage", None)
        cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None) or 0
        metered = metered_usage(
            self.endpoint.price, input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "completion_tokens", 0) or 0), cached_tokens=int(cached),
            images=len(images), latency_s=answer.latency_s, retries=answer.retries + failed,
        )
        thought, actions, raw = self._parse(choice.message, screen.width, screen.height)
        for action in actions:
            episode.remember(action, sent)
        info: dict[str, Any] = {"format": self.action_format, "images_sent": len(images)}
        if view.table is not None:  # what the model read beside (or instead of) the screenshot
            info["observed"] = {"observation": self.observation, "table": view.table}
        return PolicyOutput(actions=actions, thought=thought, usage=metered, raw=raw, info=info)

    # -- internals ----------------------------------------------------------------------------
    def _episode_for(self, width: int, height: int) -> SftEpisode:
        if self._task is None:
            raise RuntimeError("reset(task) must be called before act()")
        if self._episode is None:
            meta = EpisodeMeta(
                episode_id="live", created_at="1970-01-01T00:00:00+00:00",
                task=TaskInfo(id=self._task.task_id, instruction=self._task.instruction),
                env=EnvInfo(kind="browser", screen=ScreenSize(width=width, height=height)),
                actor=ActorInfo(type="policy", name=self.name),
            )
            options = SftOptions(action_format=self.action_format, images=self.images, history=self.history)
            self._episode = SftEpisode(meta, self._task.instruction, options, reply_format=self.reply_format)
        return self._episode

    def _frame(self, screen: Any) -> Any:
        """The screenshot as sent: at the size the format shows it (for smart_resize, already resized)."""
        size = self.reply_format.image_frame(screen.width, screen.height)
        return screen if size == screen.size else screen.resize(size, resample=3)  # bicubic

    def _body(self, messages: list[dict[str, Any]], images: list[Any]) -> dict[str, Any]:
        """The request: a reasoning model gets ``max_completion_tokens`` and only the sampling asked for;
        a format that declares tools gets them, and one must be called."""
        body: dict[str, Any] = {"model": self.model, "messages": chat_messages(messages, images)}
        body["max_completion_tokens" if self.reasoning else "max_tokens"] = self.max_tokens
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.reasoning_effort is not None:
            body["reasoning_effort"] = self.reasoning_effort
        if self.reply_format.tools:
            body["tools"] = [{"type": "function", "function": dict(tool)} for tool in self.reply_format.tools]
            body["tool_choice"] = "required"
        return body

    def _send(self, messages: list[dict[str, Any]], images: list[Any]) -> Any:
        """One request, within the timeout as a whole; an answer that is not a chat completion is the service's fault."""
        body = self._body(messages, images)

        def create() -> Any:
            return within_deadline(lambda: self._client.chat.completions.create(**body), self.endpoint.retry.timeout_s)

        if self._slots is None:
            response = create()
        else:
            with self._slots.slot():
                response = create()
        require_fields(response, "chat completion", ("choices",))
        if not response.choices or getattr(response.choices[0], "message", None) is None:
            raise UnexpectedAnswer("the service's answer is not a chat completion: it has no choice with a 'message'")
        return response

    def _parse(self, message: Any, width: int, height: int) -> tuple[str | None, list[Action], str]:
        """(thought, actions, the reply as recorded): the text and any tool calls, read by the format."""
        calls = [ToolCall(call.function.name, call.function.arguments) for call in getattr(message, "tool_calls", None) or []]
        text = self.reply_format.reply_text(message.content or "", calls)
        reply = self.reply_format.parse(text, screen_width=width, screen_height=height)
        return reply.thought, reply.actions, text


def _sdk() -> Any:
    import openai

    return openai


def _client(endpoint: Endpoint) -> Any:
    try:
        import openai
    except ModuleNotFoundError:
        raise ModelError("openai: policies need the openai SDK: pip install -e '.[http]'") from None
    return openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key or "not-needed",
                         timeout=endpoint.retry.timeout_s, max_retries=0)


def load_openai_policy(argument: str) -> OpenAIChatPolicy:
    """The policy of an ``openai:`` spec's argument: ``MODEL[?options]`` (see the module docstring)."""
    model, options = parse_spec("openai", argument, OPTIONS)
    endpoint = endpoint_from(options, model=model, default_key_env="OPENAI_API_KEY", default_base_url=None,
                             base_url_env="OPENAI_BASE_URL", needs_key=not (options.get("base_url") or _env_base_url()) or "key_env" in options)
    return OpenAIChatPolicy(
        model, endpoint=endpoint, action_format=options.get("format", "uitars"), images=options.get("images", 1),
        history=options.get("history", 5), max_tokens=options.get("max_tokens"),
        temperature=options.get("temperature"), reasoning_effort=options.get("reasoning_effort"),
        min_pixels=options.get("min_pixels"), max_pixels=options.get("max_pixels"),
        observation=options.get("observation", "screenshot"),
    )


def _env_base_url() -> str | None:
    import os

    return os.environ.get("OPENAI_BASE_URL") or None


__all__ = ["OPTIONS", "REASONING_EFFORTS", "OpenAIChatPolicy", "chat_messages", "drop_oldest_image", "is_reasoning_model",
           "load_openai_policy", "png_data_url"]
