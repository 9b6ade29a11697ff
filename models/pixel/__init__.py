"""The built-in pixel-in policy: a small torch network trained by behaviour cloning on CPU.

Modules, one job each: :mod:`~models.pixel.text` (instruction tokens), :mod:`~models.pixel.history`
(what the policy remembers), :mod:`~models.pixel.screen` (pixels to input),
:mod:`~models.pixel.network`, :mod:`~models.pixel.dataset` (episodes to samples),
:mod:`~models.pixel.train`, :mod:`~models.pixel.checkpoint`, :mod:`~models.pixel.policy`
(the MiniWoB++ tasks it is trained and measured on are the named suite ``datasets/tasks/miniwob-pixel``).
"""
