"""Checks: how a task's success is judged, one family per module, one registry.

Why a package of its own, beside :mod:`gui_agent.task` rather than inside it: a task file
*names* checks (its ``evaluator``), but judging them is a different job with different
readers: it opens spreadsheets, documents and mailboxes, asks a page for its text, and
grows by whole families (OSWorld brings about sixty checks). The task schema imports the
check tree from here; nothing here imports the task package, so the families can be
read, tested and extended without it.

* ``family``: what a family declares: each check's model beside its judge
  (:class:`~gui_agent.checks.family.CheckType`);
* ``registry``: the families, the one place every check is learnt from;
* ``tree``: the :data:`~gui_agent.checks.tree.Check` union and the combinators;
* ``evaluation``: :func:`~gui_agent.checks.evaluation.evaluate`, walking a check tree and
  handing each leaf to its registered judge;
* ``probes``: what judges may ask an environment;
* the families: ``browser``, ``answer``, ``files``, ``mail``, ``spreadsheet``,
  ``document``, ``presentation``;
* ``osworld``: OSWorld's evaluator functions as our checks (used by the OSWorld import);
* ``reports``, ``value_rules``, ``expectations``: what several families share.

Adding a check: its arguments and one-key model, its judge, and a row in its family's
``CHECKS``. Adding a family: a module with those, and a line in
:data:`~gui_agent.checks.registry.FAMILIES`.
"""
