"""Re-executing trajectories and turning them into reward-model data.

* :mod:`.source` -- the episode to replay, its task file and seed;
* :mod:`.similarity` -- live screen vs recorded keyframe (SSIM);
* :mod:`.anchor`, :mod:`.selector`, :mod:`.element` -- re-finding a click target (template
  matching, CSS selector, accessibility tree), at its place inside it (:mod:`.click_point`);
* :mod:`.policy`, :mod:`.replayer` -- the replay as a policy in the ordinary runner;
* :mod:`.perturb`, :mod:`.scripted`, :mod:`.simulator` -- the human simulator's variants, executed;
* :mod:`.labels` -- step labels from executing prefixes (the rule is defined there);
* :mod:`.builder` -- ``gui-agent make-reward-data`` (layout: :mod:`gui_agent.export.reward`).

Imports OpenCV; the CLI loads this package only inside its handlers.
"""
