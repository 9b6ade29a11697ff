"""OSWorld evaluator functions -> our checks, one function per OSWorld metric.

:mod:`gui_agent.task.osworld_import` hands every ``func`` of a config's evaluator to
:func:`convert_metric` with its ``result``, ``expected`` and ``options``; what comes back
is a list of checks (combined with ``all_of``). A metric or an option with no
equivalent raises :class:`~gui_agent.checks.osworld.config.Unsupported` (the evaluator is
then left out whole: a partial check could pass what the original fails); a config whose
shape is wrong raises :class:`~gui_agent.checks.osworld.config.ConfigError` naming the key.

Files: ``vm_file`` results are paths in the VM's home (``/home/user/X`` -> ``X``);
``cloud_file`` expectations are downloads, so they become declared inputs; a
``vm_file`` expectation is usable when a config step downloaded it (it is that input);
``cache_file`` results are the ``stdout`` files post steps write.

The conversions live by the family of checks they produce (``spreadsheet``, ``document``,
``presentation``, ``files``, ``mail``, ``image``, ``media``, ``chrome``, ``vscode``, and
``general`` for the metrics judging any value), each with its table of metric names;
adding a metric is a function there and a line in its table. Metrics judging a value that
is not a file read it through :func:`gui_agent.checks.osworld.getters.source_of`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from gui_agent.checks.osworld import (
    accessibility, chrome, document, files, general, image, mail, media, presentation, spreadsheet, vscode,
)
from gui_agent.errors import OsworldUnsupported
from gui_agent.checks.osworld.metric import Check, Metric


def infeasible(metric: Metric) -> list[Check]:
    """OSWorld's ``infeasible``: the task cannot be done, and the agent must say so."""
    return [{"infeasible_reported": None}]


#: OSWorld metric name -> its conversion.
METRICS: MappingProxyType[str, Callable[[Metric], list[Check]]] = MappingProxyType({
    **spreadsheet.METRICS, **files.METRICS, **document.METRICS, **presentation.METRICS, **mail.METRICS,
    **general.METRICS, **accessibility.METRICS, **chrome.METRICS, **image.METRICS, **media.METRICS, **vscode.METRICS,
    "infeasible": infeasible,
})
#: Metrics known to have no equivalent, and why (the rest: "no equivalent check").
NO_EQUIVALENT: MappingProxyType[str, str] = MappingProxyType({
    **document.NO_EQUIVALENT, **general.NO_EQUIVALENT, **accessibility.NO_EQUIVALENT, **chrome.NO_EQUIVALENT, **image.NO_EQUIVALENT, **media.NO_EQUIVALENT, **vscode.NO_EQUIVALENT,
})


def convert_metric(metric: Metric) -> list[Check]:
    """The checks for one OSWorld metric.

    Raises:
        OsworldUnsupported: it (or one of its options) has no equivalent.
        OsworldConfigError: the config's shape is wrong (the message names the key).
    """
    convert = METRICS.get(metric.func)
    if convert is None:
        raise OsworldUnsupported(NO_EQUIVALENT.get(metric.func, "no equivalent check"))
    return convert(metric)


__all__ = ["METRICS", "NO_EQUIVALENT", "convert_metric"]
