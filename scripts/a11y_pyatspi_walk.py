"""The baseline of scripts/bench_a11y.py: pyatspi's own walk of the desktop's tree.

Runs under the system Python (Debian's python3-pyatspi is not installable in the venv)
and reads what OSWorld's ``desktop_env/server/main.py`` reads of each element, the same
way it asks for it: name, states, attributes, the box of visible showing elements, text,
image/selection interfaces, value, actions, role name, then the children (of a
spreadsheet's table, the showing cells found by scanning rows and columns from the top
left as OSWorld does). ``--prune`` leaves out elements that are not showing (and their
subtrees), as our reader does for observations, so both walk the same tree.

Prints one JSON line: ``{"times_s": [...], "elements": N, "cpu_s": S}`` (S: this process's
CPU time in all). Standard library only
(ElementTree builds the XML), so it runs without the venv.

Usage: python3 scripts/a11y_pyatspi_walk.py [--prune] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import time
import xml.etree.ElementTree as ET  # noqa: N817

import pyatspi

_ST = "https://accessibility.ubuntu.example.org/ns/state"
_ATTR = "https://accessibility.ubuntu.example.org/ns/attributes"
_CP = "https://accessibility.ubuntu.example.org/ns/component"
_VAL = "https://accessibility.ubuntu.example.org/ns/value"
_ACT = "https://accessibility.ubuntu.example.org/ns/action"
_CALC_COLUMNS = 16384  # LibreOffice 7.4+: a sheet's columns (its table's children are row * this + column)


def _state_names(node) -> list[str]:
    return [pyatspi.StateType._enum_lookup[s].split("_", 1)[1].lower() for s in node.getState().get_states()]


def _element(node, prune: bool, count: list[int], in_calc: bool = False) -> ET.Element | None:
    count[0] += 1
    states = _state_names(node)
    on_screen = "visible" in states and "showing" in states
    role = node.getRoleName().strip()
    if prune and not on_screen and role != "application":
        return None
    attrib = {"name": node.name}
    attrib.update({f"{{{_ST}}}{s}": "true" for s in states if s})
    attrib.update({f"{{{_ATTR}}}{k}": v for k, v in node.get_attributes().items() if k})
    if on_screen:
        try:
            x, y, w, h = node.queryComponent().getExtents(pyatspi.XY_SCREEN)
            attrib[f"{{{_CP}}}screencoord"], attrib[f"{{{_CP}}}size"] = str((x, y)), str((w, h))
        except NotImplementedError:
            pass
    text = ""
    try:
        t = node.queryText()
        text = t.getText(0, t.characterCount).replace("\ufffc", "").replace("\ufffd", "")
    except NotImplementedError:
        pass
    for name, query in (("image", node.queryImage), ("selection", node.querySelection)):
        try:
            query()
            attrib[name] = "true"
        except NotImplementedError:
            pass
    try:
        v = node.queryValue()
        attrib.update({f"{{{_VAL}}}value": str(v.currentValue), f"{{{_VAL}}}min": str(v.minimumValue),
                       f"{{{_VAL}}}max": str(v.maximumValue), f"{{{_VAL}}}step": str(v.minimumIncrement)})
    except NotImplementedError:
        pass
    try:
        a = node.queryAction()
        for i in range(a.nActions):
            stem = a.getName(i).replace(" ", "-")
            attrib[f"{{{_ACT}}}{stem}_desc"], attrib[f"{{{_ACT}}}{stem}_kb"] = a.getDescription(i), a.getKeyBinding(i)
    except NotImplementedError:
        pass
    element = ET.Element((role or "unknown").replace(" ", "-"), attrib)
    element.text = text or None
    in_calc = in_calc or role == "document spreadsheet"
    children = _calc_cells(node) if in_calc and role == "table" else list(node)[:1024]
    for child in children:
        sub = _element(child, prune, count, in_calc)
        if sub is not None:
            element.append(sub)
    return element


def _calc_cells(table) -> list:
    """The showing cells, scanned row by row from the first showing one (OSWorld's way)."""
    cells, base, first_column = [], 0, None
    for _row in range(1_048_576):
        column = first_column or 0
        while column < _CALC_COLUMNS:
            cell = table[base + column]
            if cell.getState().contains(pyatspi.STATE_SHOWING):
                cells.append(cell)
                first_column = column if first_column is None else first_column
            elif first_column is not None or column >= 500:
                break
            column += 1
        if first_column is not None and column == first_column or first_column is None and _row >= 500:
            break
        base += _CALC_COLUMNS
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prune", action="store_true", help="leave out elements that are not showing")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times, count = [], [0]
    for _ in range(args.repeat):
        count[0] = 0
        start = time.perf_counter()
        root = ET.Element("desktop-frame")
        for app in pyatspi.Registry.getDesktop(0):
            sub = _element(app, args.prune, count)
            if sub is not None:
                root.append(sub)
        ET.tostring(root, encoding="unicode")
        times.append(time.perf_counter() - start)
    print(json.dumps({"times_s": times, "elements": len(list(root.iter())), "cpu_s": time.process_time()}))


if __name__ == "__main__":
    main()
