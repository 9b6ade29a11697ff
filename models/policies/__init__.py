"""Policies the runner can drive, chosen by a short spec string on the command line.

Specs: ``oracle`` (scripted MiniWoB++ solver reading the DOM), ``desktop-oracle``
(scripted solver of the desktop suites), ``random`` or ``random:SEED``,
``replay:EPISODE_DIR``, ``hf:PATH_OR_ID`` (a transformers VLM, :mod:`gui_agent.models.vlm`),
``pixel[:CKPT]`` (the pixel-in network, :mod:`gui_agent.models.pixel`). They are registered with
the core in :mod:`gui_agent.models.policies.specs`; build one with :func:`gui_agent.registry.load_policy`.
"""
