"""Policies the runner can drive, chosen by a short spec string on the command line.

Specs: ``oracle`` (scripted MiniWoB++ solver reading the DOM), ``desktop-oracle``
(scripted solver of the desktop suites), ``random`` or
``random:SEED``, ``replay:EPISODE_DIR``. Each policy's module is imported only when
chosen, so choosing the oracle never loads torch.
"""

from __future__ import annotations

from gui_agent.policy import Policy

POLICY_SPECS: dict[str, str] = {
    "oracle": "scripted MiniWoB++ solver that reads the DOM (demonstrations, reference)",
    "desktop-oracle": "scripted solver of the desktop suites (real clicks and keys through XTEST)",
    "random": "random clicks/typing/keys; 'random:SEED' to choose the seed",
    "replay": "'replay:EPISODE_DIR' plays a recorded episode's actions",
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
    known = "\n".join(f"  {key:8s} {text}" for key, text in POLICY_SPECS.items())
    raise ValueError(f"unknown policy {spec!r}; known policies:\n{known}")
