"""Online reinforcement learning: ``gui-agent train rl`` turns environments and rewards into better policies.

Modules, one job each:

* :mod:`.distribution` -- the pixel policy's actions as a distribution (sample, log-prob, entropy, KL);
* :mod:`.rollout_policy` -- the policy side: a policy that samples and remembers its decisions;
* :mod:`.scheduler` -- which rollout a free worker runs next (groups, the newest weights, bounded lag);
* :mod:`.worker` -- the rollout workers the existing pools run (episodes, retries, scoring);
* :mod:`.rewards` -- evaluator, reward model, judge, or a weighted mix; disagreements;
* :mod:`.groups` -- rollouts into groups and group-relative advantages; what is dropped, and why;
* :mod:`.learner` -- the clipped policy-gradient step with its KL anchor and entropy bonus;
* :mod:`.starts` -- what ``--from`` names: a pixel checkpoint, or ``hf:`` a VLM;
* :mod:`.vlm_tokens`, :mod:`.vlm_rollout_policy`, :mod:`.vlm_learner` -- the same for an
  ``hf:`` VLM: its decisions as tokens, sampling with a LoRA adapter, training the adapter;
* :mod:`.checkpoints` -- the run's checkpoints in the pixel-policy format, resumable;
* :mod:`.frames` -- dropping an episode's screens (``--keep-frames-every``);
* :mod:`.options`, :mod:`.loop` -- the run's settings and the loop itself;
* :mod:`.report` -- learning curve and per-task success.

Submodules import torch; this package file does not.
"""
