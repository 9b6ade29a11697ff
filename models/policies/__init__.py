"""Policies the runner can drive, chosen by a short spec string on the command line.

Specs: ``oracle`` (scripted MiniWoB++ solver reading the DOM), ``desktop-oracle``
(scripted solver of the desktop suites), ``random`` or
``random:SEED``, ``replay:EPISODE_DIR``, ``hf:PATH_OR_ID`` (a transformers VLM, :mod:`models.vlm`), ``pixel[:CKPT]`` (the pixel-in network, :mod:`models.pixel`). Each policy's module is imported only when
chosen, so choosing the oracle never loads torch.
"""

from __future__ import annotations

from gui_agent.policy import Policy

POLICY_SPECS: dict[str, str] = {
    "oracle": "scripted MiniWoB++ solver that reads the DOM (demonstrations, reference)",
    "desktop-oracle": "scripted solver of the desktop suites (real clicks and keys through XTEST)",
    "random": "random clicks/typing/keys; 'random:SEED' to choose the seed",
    "replay": "'replay:EPISODE_DIR' plays a recorded episode's actions",
    "pixel": "'pixel' the shipped pixel-in network (models/pixel); 'pixel:CKPT' a checkpoint from 'gui-agent train policy'",
    "hf": "'hf:PATH_OR_ID[?images=2&...]' a transformers vision-language model (Qwen2-VL, Qwen2.5-VL/UI-TARS, Idefics3/SmolVLM)",
}


def load_policy(spec: str) -> Policy:
    """Build a policy from its spec string; unknown specs raise ValueError listing the known ones."""
    name, _, argument = spec.partition(":")
    if name == "oracle":
        from models.policies.miniwob_oracle import MiniWobOraclePolicy

        return MiniWobOraclePolicy()
    if name == "desktop-oracle":
        from models.policies.desktop_oracle import DesktopOraclePolicy

        return DesktopOraclePolicy()
    if name == "random":
        from models.policies.random_policy import RandomPolicy

        return RandomPolicy(seed=int(argument) if argument else 0)
    if name == "replay":
        if not argument:
            raise ValueError("replay needs an episode folder: --policy replay:PATH/TO/EPISODE")
        from models.policies.replay_policy import ReplayPolicy

        return ReplayPolicy(argument)
    if name == "pixel":
        try:
            from models.pixel.policy import PixelPolicy
        except ModuleNotFoundError as exc:
            raise ValueError(f"the pixel policy needs torch ({exc}); install gui-agent[models] or choose --policy oracle") from None

        return PixelPolicy(argument or None)
    if name == "hf":
        from models.vlm.policy import load_vlm_policy

        return load_vlm_policy(argument)
    known = "\n".join(f"  {key:8s} {text}" for key, text in POLICY_SPECS.items())
    raise ValueError(f"unknown policy {spec!r}; known policies:\n{known}")
