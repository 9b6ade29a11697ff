"""The policies ``models/`` offers to ``--policy``, as registry entries (see :mod:`gui_agent.registry`).

``pyproject.toml`` names each entry under ``gui_agent.policies``. Each policy's module is
imported only when it is built, so listing them, or choosing the oracle, never loads torch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.policy import Policy
from gui_agent.registry import PolicyEntry


def _oracle(argument: str) -> Policy:
    from gui_agent.models.policies.miniwob_oracle import MiniWobOraclePolicy

    return MiniWobOraclePolicy()


def _oracle_refuses(argument: str, task_id: str) -> str | None:
    from gui_agent.models.policies.miniwob_oracle.policy import task_name
    from gui_agent.models.policies.miniwob_oracle.registry import SOLVERS

    if task_name(task_id) in SOLVERS:
        return None
    return ("the MiniWoB++ oracle solves only the MiniWoB++ tasks it has a solver for (datasets/tasks/miniwob/); "
            "for the desktop suites use --policy desktop-oracle, for other tasks a model (hf:, openai:, anthropic:) "
            "or random")


def _desktop_oracle_refuses(argument: str, task_id: str) -> str | None:
    from gui_agent.models.policies.desktop_oracle.registry import SCRIPTS

    if task_id in SCRIPTS:
        return None
    return ("the desktop oracle plays only the scripts of the shipped desktop suites (datasets/tasks/desktop/); "
            "for MiniWoB++ tasks use --policy oracle, for other tasks a model (hf:, openai:, anthropic:) or random")


def _desktop_oracle(argument: str) -> Policy:
    from gui_agent.models.policies.desktop_oracle import DesktopOraclePolicy

    return DesktopOraclePolicy()


def _random(argument: str) -> Policy:
    from gui_agent.models.policies.random_policy import RandomPolicy

    try:
        seed = int(argument) if argument else 0
    except ValueError:
        raise ValueError(f"random:SEED needs a whole number, got {argument!r}") from None
    return RandomPolicy(seed=seed)


def _replay(argument: str) -> Policy:
    if not argument:
        raise ValueError("replay needs an episode folder: --policy replay:PATH/TO/EPISODE")
    from gui_agent.models.policies.replay_policy import ReplayPolicy

    return ReplayPolicy(argument)


def _pixel(argument: str) -> Policy:
    try:
        from gui_agent.models.pixel.policy import PixelPolicy
    except ModuleNotFoundError as exc:
        raise ValueError(f"the pixel policy needs torch ({exc}); install gui-agent[models] or choose --policy oracle") from None
    return PixelPolicy(argument or None)


def _hf(argument: str) -> Policy:
    from gui_agent.models.vlm.policy import load_vlm_policy

    return load_vlm_policy(argument)


def _openai(argument: str) -> Policy:
    from gui_agent.models.http.openai_chat import load_openai_policy

    return load_openai_policy(argument)


def _anthropic(argument: str) -> Policy:
    from gui_agent.models.http.anthropic_computer import load_anthropic_policy

    return load_anthropic_policy(argument)


def _openai_cua(argument: str) -> Policy:
    from gui_agent.models.http.openai_computer import load_openai_computer_policy

    return load_openai_computer_policy(argument)


def _openai_observes(argument: str) -> frozenset[str]:
    """``observation=`` other than ``screenshot`` reads the desktop's accessibility tree."""
    from gui_agent.models.http.observation_modes import needs_tree
    from gui_agent.models.http.openai_chat import OPTIONS
    from gui_agent.models.http.settings import parse_spec

    _, options = parse_spec("openai", argument, OPTIONS)
    return frozenset({"a11y_tree"}) if needs_tree(options.get("observation", "screenshot")) else frozenset()


def _reachable(build: Callable[[str], Any]) -> Callable[[str], None]:
    """An HTTP policy's check: it builds (options, key), and its endpoint's host resolves and accepts a connection."""

    def check(argument: str) -> None:
        from gui_agent.models.http.probe import probe_endpoint

        probe_endpoint(build(argument).base_url)

    return check


ORACLE = PolicyEntry("oracle", "scripted MiniWoB++ solver that reads the DOM (demonstrations, reference)", _oracle,
                     refuses_task=_oracle_refuses)
DESKTOP_ORACLE = PolicyEntry("desktop-oracle", "scripted solver of the desktop suites (real clicks and keys through XTEST)",
                             _desktop_oracle, refuses_task=_desktop_oracle_refuses)
RANDOM = PolicyEntry("random", "random clicks/typing/keys; 'random:SEED' to choose the seed", _random)
REPLAY = PolicyEntry("replay", "'replay:EPISODE_DIR' plays a recorded episode's actions", _replay)
PIXEL = PolicyEntry(
    "pixel", "'pixel' the shipped pixel-in network (models/pixel); 'pixel:CKPT' a checkpoint from 'gui-agent train policy'", _pixel
)
HF = PolicyEntry(
    "hf", "'hf:PATH_OR_ID[?images=2&...]' a transformers vision-language model (Qwen2-VL, Qwen2.5-VL/UI-TARS, Idefics3/SmolVLM)", _hf
)
# HTTP policies load no weights: building one is the cheap check (options, key), with one
# connection to the endpoint (models/http/probe.py: no request, nothing paid).
OPENAI = PolicyEntry(
    "openai", "'openai:MODEL[?base_url=...&format=uitars|uitars-v1|pyautogui|json]' a model behind an OpenAI-compatible chat API "
    "(vLLM, SGLang, TGI, transformers serve, Ollama, OpenAI); key from $OPENAI_API_KEY", _openai, check=_reachable(_openai),
    observes=_openai_observes,
)
ANTHROPIC = PolicyEntry(
    "anthropic", "'anthropic:MODEL[?display=WxH]' Claude with the computer-use tool (its version by model; tool= to choose); "
    "key from $ANTHROPIC_API_KEY",
    _anthropic, check=_reachable(_anthropic),
)
OPENAI_CUA = PolicyEntry(
    "openai-cua", "'openai-cua:MODEL[?environment=linux]' OpenAI's computer-use model (Responses API); key from $OPENAI_API_KEY",
    _openai_cua, check=_reachable(_openai_cua),
)
