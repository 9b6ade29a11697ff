"""Reward models and judges: is this step progress, did this trajectory succeed?

* :mod:`.data` reads the replayer's reward data (layout: :mod:`gui_agent.export.reward`).
* :mod:`.encoding` / :mod:`.transitions` turn screens, actions and text into arrays.
* :mod:`.network` holds the step and outcome networks; :mod:`.training` trains them
  (``gui-agent train reward``); :mod:`.checkpoint` saves and loads them.
* :mod:`.model` scores steps and trajectories at inference (:class:`~.model.RewardModel`).
* :mod:`.judge` gives verdicts for ``gui-agent eval --judge`` (a reward model, or any
  transformers VLM with voting); :mod:`.best_of` is the ``--best-of N`` policy wrapper.
* :mod:`.standin_data` makes a small labelled set from the oracle and the random policy
  (stand-in step labels) for tests that need data in seconds.

Submodules import torch; this package file does not, so listing it stays cheap.
"""
