"""The built-in pixel-in policy: a small torch network trained by behaviour cloning on CPU.

Modules, one job each: :mod:`~gui_agent.models.pixel.text` (instruction tokens), :mod:`~gui_agent.models.pixel.history`
(what the policy remembers), :mod:`~gui_agent.models.pixel.screen` (pixels to input),
:mod:`~gui_agent.models.pixel.network`, :mod:`~gui_agent.models.pixel.dataset` (episodes to samples),
:mod:`~gui_agent.models.pixel.train`, :mod:`~gui_agent.models.pixel.checkpoint`, :mod:`~gui_agent.models.pixel.policy`
(the MiniWoB++ tasks it is trained and measured on are the named suite ``datasets/tasks/miniwob-pixel``).
"""
