"""Evaluating the spreadsheet checks of :mod:`gui_agent.task.sheet_checks` (openpyxl;
a LibreOffice of its own for printed values).

Each comparison check reduces both sheets to the same plain summary (a chart to its
series and chosen properties, a pivot table to its source and fields, ...) and reports
where the summaries differ, so a failed check says what is different, not only that
something is.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from gui_agent.task import sheet_checks as kinds
from gui_agent.task.cell_refs import SheetRef, column_name
from gui_agent.task.check_reports import cut, missing, verdict
from gui_agent.task.value_rules import matches

#: Seconds the LibreOffice that exports a sheet as CSV may take.
EXPORT_TIMEOUT_S = 90.0
#: LibreOffice's CSV export options: comma, double quotes, UTF-8, cells as shown
#: (formatted), then the sheet number; the same as OSWorld's post-step uses.
_CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF-8,1,,0,false,true,true,false,false,{sheet}"


# ---------------------------------------------------------------------- workbooks and sheets


def load_workbook(probe: Any, path_text: str, report: dict[str, Any], *, formulas: bool = False) -> Any:
    """The saved workbook at the home-relative ``path_text``, or None (report filled) if missing."""
    import openpyxl

    path = probe.resolve_path(path_text)
    if not path.is_file():
        missing(report, path_text)
        return None
    return openpyxl.load_workbook(path, data_only=not formulas)


def load_reference(probe: Any, task_path: str, *, formulas: bool = False) -> Any:
    """A workbook shipped with the task; a missing one raises (the task is broken, not the agent)."""
    import openpyxl

    return openpyxl.load_workbook(probe.task_file(task_path), data_only=not formulas)


def open_sheet(workbook: Any, ref: SheetRef | None, label: str, report: dict[str, Any]) -> Any:
    """The sheet ``ref`` (position or name; None: the first) of ``workbook``, or None with the report filled."""
    names = list(workbook.sheetnames)
    if ref is None:
        return workbook.worksheets[0]
    if isinstance(ref, int):
        if ref < len(workbook.worksheets):
            return workbook.worksheets[ref]
        report.update(observed={"sheets": names}, reason=f"{label} has no sheet at position {ref} (sheets: {names})")
        return None
    if ref in names:
        return workbook[ref]
    report.update(observed={"sheets": names}, reason=f"{label} has no sheet {ref!r} (sheets: {names})")
    return None


def sheet_pair(args: kinds.SheetPairArgs, probe: Any, report: dict[str, Any], *, formulas: bool = False) -> tuple[Any, Any] | None:
    """The two sheets a :class:`~gui_agent.task.sheet_checks.SheetPairArgs` names, or None (report filled)."""
    workbook = load_workbook(probe, args.path, report, formulas=formulas)
    if workbook is None:
        return None
    ours = open_sheet(workbook, args.sheet, args.path, report)
    if ours is None:
        return None
    if args.expected is None:
        other_book, label = workbook, args.path
    else:
        other_book, label = load_reference(probe, args.expected, formulas=formulas), args.expected
    other_ref = args.expected_sheet if args.expected_sheet is not None else args.sheet
    theirs = open_sheet(other_book, other_ref, label, report)
    if theirs is None:
        if args.expected is not None:
            raise ValueError(report["reason"])  # the reference file lacks the sheet: the task is wrong
        return None
    return ours, theirs


def _where(args: kinds.SheetPairArgs, ours: Any, theirs: Any) -> str:
    other = args.expected or args.path
    return f"{args.path}!{ours.title} vs {other}!{theirs.title}"


def _compare_maps(ours: dict[Any, Any], theirs: dict[Any, Any], what: str) -> list[str]:
    """Differences between two keyed summaries (charts by series, pivots by source...)."""
    out: list[str] = []
    for key in theirs:
        if key not in ours:
            out.append(f"no {what} {key!r} (expected one)")
        elif ours[key] != theirs[key]:
            props = sorted(k for k in set(ours[key]) | set(theirs[key]) if ours[key].get(k) != theirs[key].get(k))
            out.extend(f"{what} {key!r} {p} is {ours[key].get(p)!r}, expected {theirs[key].get(p)!r}" for p in props)
    out.extend(f"an extra {what} {key!r}" for key in ours if key not in theirs)
    return out


# ---------------------------------------------------------------------- charts


def _rich_text(title: Any) -> str | None:
    """The text of a chart or axis title (all runs of all paragraphs), or None."""
    try:
        paragraphs = title.tx.rich.p
    except AttributeError:
        return None
    text = "".join(run.t or "" for p in paragraphs for run in (p.r or []))
    return text or None


def _ref(data: Any) -> str:
    for kind in ("numRef", "strRef"):
        ref = getattr(data, kind, None)
        if ref is not None and getattr(ref, "f", None):
            return str(ref.f)
    return ""


def chart_summary(sheet: Any, props: list[str]) -> dict[str, dict[str, Any]]:
    """Series text (``values,categories;...``) -> the chosen properties, for each chart of ``sheet``."""
    charts: dict[str, dict[str, Any]] = {}
    for chart in getattr(sheet, "_charts", []):
        series = ";".join(f"{_ref(s.val)},{_ref(s.cat)}" for s in chart.series)
        info: dict[str, Any] = {}
        for prop in props:
            if prop == "type":
                info[prop] = chart.tagname
            elif prop == "title":
                info[prop] = _rich_text(chart.title)
            elif prop == "legend":
                info[prop] = chart.legend.position if chart.legend is not None else None
            elif prop in ("xtitle", "ytitle", "ztitle"):
                axis = getattr(chart, f"{prop[0]}_axis", None)
                info[prop] = _rich_text(getattr(axis, "title", None))
            elif prop == "direction":
                info[prop] = getattr(chart, "barDir", None)
            elif prop in ("width", "height"):
                info[prop] = getattr(chart, prop)
            elif prop == "anchor":
                anchor = chart.anchor
                start, end = getattr(anchor, "_from", None), getattr(anchor, "to", None)
                info[prop] = [getattr(start, "col", None), getattr(start, "row", None),
                              getattr(end, "col", None), getattr(end, "row", None)]
        charts[series] = info
    return charts


def _chart_equal(args: kinds.ChartEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (chart_summary(s, list(args.props)) for s in pair)
    report["observed"] = {"charts": ours, "expected_charts": theirs}
    verdict(report, _compare_maps(ours, theirs, "chart"), ok=f"{_where(args, *pair)}: {len(ours)} chart(s) alike")


# ---------------------------------------------------------------------- pivot tables


def pivot_summary(sheet: Any, props: list[str]) -> dict[str, dict[str, Any]]:
    """Source (type, range, sheet) -> the chosen properties, for each pivot table of ``sheet``.

    Source fields no item of the table uses at either end of the source range are left
    out (and field numbers shifted), so a table over A:D and the same one over A:E with
    an unused E are alike, as they are for a person.
    """
    from openpyxl.utils import coordinate_to_tuple

    tables: dict[str, dict[str, Any]] = {}
    for table in getattr(sheet, "_pivots", []):
        used = [[(item.h, item.x) for item in (field.items or []) if item.x is not None] for field in table.pivotFields]
        lead = next((i for i, u in enumerate(used) if u), len(used))
        trail = next((i for i, u in enumerate(reversed(used)) if u), 0)
        kept = used[lead:len(used) - trail]
        source = table.cache.cacheSource
        ws_source = source.worksheetSource
        first, _, last = (ws_source.ref or ":").partition(":")
        start = coordinate_to_tuple(first) if first else (0, 0)
        end = coordinate_to_tuple(last) if last else start
        key = f"{source.type};{(start[0], start[1] + lead)}:{(end[0], end[1] - trail)};{ws_source.sheet}"
        info: dict[str, Any] = {}
        if "name" in props:
            info["name"] = table.name
        for prop, attr in (("show_total", "visualTotals"), ("show_empty_row", "showEmptyRow"),
                           ("show_empty_col", "showEmptyCol"), ("show_headers", "showHeaders")):
            if prop in props:
                info[prop] = getattr(table, attr)
        if "location" in props:
            info["location"] = table.location.ref if table.location is not None else None
        if "selection" in props or "filter" in props:
            info["selection"] = kept if "ordered" in props else [sorted(set(u), key=repr) for u in kept]
        if "filter" in props:
            info["filter_fields"] = sorted(f.fld for f in table.pageFields)
        for prop, fields in (("col_fields", table.colFields), ("row_fields", table.rowFields)):
            if prop in props:
                numbers = [f.x - lead if f.x >= 0 else f.x for f in fields]
                info[prop] = [n for n in numbers if n >= 0] if "ignore_special_fields" in props else numbers
        if "data_fields" in props:
            info["data_fields"] = [
                f"{f.fld - lead};{f.name if 'data_fields_name' in props else ''};{f.subtotal};{f.showDataAs}"
                for f in table.dataFields
            ]
        tables[key] = info
    return tables


def _pivot_equal(args: kinds.PivotEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (pivot_summary(s, list(args.props)) for s in pair)
    report["observed"] = {"pivot_tables": ours, "expected_pivot_tables": theirs}
    verdict(report, _compare_maps(ours, theirs, "pivot table"), ok=f"{_where(args, *pair)}: {len(ours)} pivot table(s) alike")


# ---------------------------------------------------------------------- styles


def _color(color: Any) -> str | None:
    if color is None:
        return None
    rgb = getattr(color, "rgb", None)
    if isinstance(rgb, str):
        return rgb.upper()
    theme = getattr(color, "theme", None)
    return f"theme:{theme}" if theme is not None else None


def cell_style(prop: str, cell: Any, dxf: Any = None) -> Any:
    """One style property of ``cell`` as a plain value; ``dxf``: a conditional format's style applying to it."""
    from openpyxl.cell.cell import MergedCell

    value = cell.value
    font = (dxf.font if dxf is not None and dxf.font is not None else cell.font)
    if prop == "number_format":
        if value is None or isinstance(value, (str, bool)):
            return None
        return dxf.numFmt.formatCode if dxf is not None and dxf.numFmt is not None else cell.number_format
    if prop.startswith("font_"):
        if value is None:
            return None
        attr = {"font_name": "name", "font_family": "family", "font_bold": "b", "font_italic": "i",
                "font_underline": "u", "font_size": "sz"}.get(prop)
        if prop == "font_color":
            return _color(font.color)
        got = getattr(font, attr) if attr else None
        return bool(got) if prop in ("font_bold", "font_italic") else got
    if prop == "fill_type":
        fill = dxf.fill if dxf is not None and dxf.fill is not None else cell.fill
        return getattr(fill, "tagname", None)
    if prop in ("bgcolor", "fgcolor"):
        if dxf is not None and dxf.fill is not None:
            return _color(dxf.fill.bgColor)
        return _color(getattr(cell.fill, "fgColor", None))
    if prop == "hyperlink":
        return (cell.hyperlink.target or "" if cell.hyperlink is not None else "") if value is not None else None
    if prop == "merge":
        return isinstance(cell, MergedCell)
    raise ValueError(f"unknown style property {prop!r}")


_CF_OPERATORS = {
    "lessThan": lambda v, r: v < r[0], "lessThanOrEqual": lambda v, r: v <= r[0],
    "greaterThan": lambda v, r: v > r[0], "greaterThanOrEqual": lambda v, r: v >= r[0],
    "equal": lambda v, r: v == r[0], "notEqual": lambda v, r: v != r[0],
    "between": lambda v, r: min(r) <= v <= max(r), "notBetween": lambda v, r: not min(r) <= v <= max(r),
}


def _conditional_styles(sheet: Any) -> dict[str, Any]:
    """Cell -> the differential style of the fixed-comparison (``cellIs``) conditional format applying to it."""
    applied: dict[str, Any] = {}
    for rules_range in sheet.conditional_formatting:
        for rule in rules_range.rules:
            if rule.type != "cellIs" or rule.operator not in _CF_OPERATORS:
                continue
            try:
                refs = [float(f) for f in rule.formula]
            except (TypeError, ValueError):
                continue  # compares with a formula or a cell: not evaluated here
            for cell_range in rules_range.sqref.ranges:
                for row, col in cell_range.cells:
                    value = sheet.cell(row, col).value
                    if isinstance(value, (int, float)) and not isinstance(value, bool) and _CF_OPERATORS[rule.operator](value, refs):
                        applied.setdefault(f"{column_name(col)}{row}", rule.dxf)
    return applied


def style_summary(sheet: Any, props: list[str], cells: set[tuple[int, int]]) -> dict[str, list[Any]]:
    """Cell -> the chosen style properties, over ``cells`` (row, column) pairs."""
    conditional = _conditional_styles(sheet)
    out: dict[str, list[Any]] = {}
    for row, col in sorted(cells):
        cell = sheet.cell(row, col)
        coordinate = f"{column_name(col)}{row}"
        out[coordinate] = [cell_style(p, cell, conditional.get(coordinate)) for p in props]
    return out


def _used_cells(sheet: Any) -> set[tuple[int, int]]:
    return {(r, c) for r in range(1, sheet.max_row + 1) for c in range(1, sheet.max_column + 1)}


def _style_equal(args: kinds.StyleEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    cells = _used_cells(pair[0]) | _used_cells(pair[1])
    ours, theirs = (style_summary(s, list(args.props), cells) for s in pair)
    differences = [
        f"{cell} {prop} is {a!r}, expected {b!r}"
        for cell in theirs for prop, a, b in zip(args.props, ours[cell], theirs[cell]) if a != b
    ]
    report["observed"] = {"cells": len(cells)}
    verdict(report, differences, ok=f"{_where(args, *pair)}: {', '.join(args.props)} alike in {len(cells)} cell(s)")


# ---------------------------------------------------------------------- layout


def freeze_state(sheet: Any) -> dict[str, Any]:
    """What is frozen: ``{"frozen": bool, "columns": n, "rows": n}`` (not where the sheet is scrolled)."""
    pane = sheet.sheet_view.pane
    if pane is None or (pane.state or "").lower() not in ("frozen", "frozensplit"):
        return {"frozen": False, "columns": 0, "rows": 0}
    return {"frozen": True, "columns": int(pane.xSplit or 0), "rows": int(pane.ySplit or 0)}


def _freeze_equal(args: kinds.FreezeEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (freeze_state(s) for s in pair)
    report["observed"] = {"freeze": ours, "expected_freeze": theirs}
    differences = [f"{k} is {ours[k]!r}, expected {theirs[k]!r}" for k in theirs if ours[k] != theirs[k]]
    verdict(report, differences, ok=f"{_where(args, *pair)}: frozen alike ({ours})")


def filter_state(sheet: Any) -> dict[str, Any]:
    """The auto-filter as plain data: range, per-column filters, sort state."""
    auto = sheet.auto_filter
    columns = []
    for column in auto.filterColumn:
        entry: dict[str, Any] = {"col_id": column.colId, "hidden_button": column.hiddenButton, "show_button": column.showButton}
        if column.filters is not None:
            entry["blank"] = column.filters.blank
            entry["values"] = sorted(map(str, column.filters.filter))
        if column.customFilters is not None:
            entry["custom_and"] = column.customFilters._and
            entry["custom"] = sorted((f.operator, str(f.val)) for f in column.customFilters.customFilter)
        columns.append(entry)
    state: dict[str, Any] = {"ref": auto.ref, "columns": sorted(columns, key=lambda c: c["col_id"])}
    sort = auto.sortState
    if sort is not None:
        state["sort"] = {
            "ref": sort.ref, "case_sensitive": sort.caseSensitive, "method": sort.sortMethod,
            "conditions": [{"ref": c.ref, "descending": c.descending, "by": c.sortBy} for c in sort.sortCondition],
        }
    return state


def _filter_equal(args: kinds.FilterEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (filter_state(s) for s in pair)
    report["observed"] = {"filter": ours, "expected_filter": theirs}
    differences = [f"{k} is {ours.get(k)!r}, expected {theirs.get(k)!r}" for k in sorted(set(ours) | set(theirs)) if ours.get(k) != theirs.get(k)]
    verdict(report, differences, ok=f"{_where(args, *pair)}: filters alike")


_DIMENSION_ATTRS = {"height": "ht", "outline_level": "outlineLevel", "auto_size": "bestFit"}


def dimension_summary(sheet: Any, axis: str, props: list[str]) -> dict[Any, dict[str, Any]]:
    """Row number or column letter -> the chosen properties, for every row/column with any set."""
    from openpyxl.worksheet.dimensions import ColumnDimension, RowDimension

    holder = sheet.row_dimensions if axis == "row" else sheet.column_dimensions
    out = {}
    for key, dim in holder.items():
        out[key] = {p: getattr(dim, _DIMENSION_ATTRS.get(p, p)) for p in props}
    default = RowDimension(sheet) if axis == "row" else ColumnDimension(sheet)
    out[None] = {p: getattr(default, _DIMENSION_ATTRS.get(p, p)) for p in props}
    return out


def _dimensions_equal(args: Any, probe: Any, report: dict[str, Any], axis: str) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (dimension_summary(s, axis, list(args.props)) for s in pair)
    default_ours, default_theirs = ours.pop(None), theirs.pop(None)
    differences = []
    for key in sorted(set(ours) | set(theirs), key=lambda k: (len(str(k)), str(k))):
        a, b = ours.get(key, default_ours), theirs.get(key, default_theirs)
        differences += [f"{axis} {key} {p} is {a[p]!r}, expected {b[p]!r}" for p in args.props if a[p] != b[p]]
    report["observed"] = {f"{axis}s": len(ours)}
    verdict(report, differences, ok=f"{_where(args, *pair)}: {axis} {', '.join(args.props)} alike")


def _rows_equal(args: kinds.RowsEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    _dimensions_equal(args, probe, report, "row")


def _columns_equal(args: kinds.ColumnsEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    _dimensions_equal(args, probe, report, "column")


def _sheet_zoom(args: kinds.SheetZoomArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = load_workbook(probe, args.path, report)
    sheet = open_sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    zoom = sheet.sheet_view.zoomScale or 100
    ok = matches(zoom, args.zoom)
    report.update(observed={"sheet": sheet.title, "zoom": zoom}, passed=ok,
                  reason=f"{sheet.title} is zoomed to {zoom}%, which {'is' if ok else 'is not'} {args.zoom.describe()}")


_VALIDATION_ATTRS = {
    "allow_blank": "allowBlank", "show_drop_down": "showDropDown", "show_input_message": "showInputMessage",
    "show_error_message": "showErrorMessage", "error_title": "errorTitle", "error_style": "errorStyle",
    "prompt_title": "promptTitle",
}


def _validation_value(validation: Any, prop: str) -> Any:
    if prop == "ranges":
        return str(validation.sqref)
    return getattr(validation, _VALIDATION_ATTRS.get(prop, prop))


def _data_validation(args: kinds.DataValidationArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = load_workbook(probe, args.path, report)
    sheet = open_sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    found = list(sheet.data_validations.dataValidation)
    shown = [{p: _validation_value(v, p) for p in ("ranges", "type", "formula1", "operator")} for v in found]
    report["observed"] = {"validations": shown}
    problems = []
    if len(found) < len(args.validations):
        problems.append(f"{len(found)} data validation(s), expected at least {len(args.validations)}")
    for validation, summary in zip(found, shown):
        if not any(all(matches(_validation_value(validation, p), rule) for p, rule in wanted.items()) for wanted in args.validations):
            problems.append(f"the validation {summary} fits none of the expected ones")
    verdict(report, problems, ok=f"{sheet.title}: {len(found)} data validation(s), each as expected")


def _cell_props(args: kinds.CellPropsArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = load_workbook(probe, args.path, report)
    sheet = open_sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    cell = sheet[args.cell]
    observed = {p: (cell.value if p == "value" else cell_style(p, cell)) for p in args.props}
    report["observed"] = {"sheet": sheet.title, "cell": args.cell, **{k: _plain(v) for k, v in observed.items()}}
    problems = [f"{args.cell} {p} is {_plain(observed[p])!r}, expected {rule.describe()}"
                for p, rule in args.props.items() if not matches(observed[p], rule)]
    verdict(report, problems, ok=f"{sheet.title}!{args.cell}: " + ", ".join(f"{p} {_plain(v)!r}" for p, v in observed.items()))


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


# ---------------------------------------------------------------------- printed values


def export_sheet_csv(workbook_path: Path, sheet_number: int, sheet_name: str) -> str:
    """The sheet as LibreOffice prints it to CSV (cells as shown), exported by a LibreOffice
    of its own (own profile, headless), so a LibreOffice the agent left open is not involved.

    Raises:
        RuntimeError: the export failed or took longer than :data:`EXPORT_TIMEOUT_S`.
    """
    from gui_agent.envs.owned_process import OwnedProcess, make_private_dir

    work = make_private_dir("gui-agent-csv-")
    try:
        source = work / ("book" + workbook_path.suffix)
        shutil.copyfile(workbook_path, source)
        proc = OwnedProcess(
            ["soffice", "--headless", "--norestore", "--nologo", f"-env:UserInstallation={(work / 'profile').as_uri()}",
             "--convert-to", _CSV_FILTER.format(sheet=sheet_number), "--outdir", str(work / "out"), str(source)],
            name="LibreOffice (CSV export)", cwd=work, log_path=work / "soffice.log",
            install_hint="install it with `apt-get install --no-install-recommends libreoffice-calc`",
        )
        proc.start()
        try:
            if not proc.wait(EXPORT_TIMEOUT_S):
                raise RuntimeError(f"exporting {workbook_path.name} as CSV took over {EXPORT_TIMEOUT_S:g} s")
        finally:
            proc.stop(grace_s=1.0)
        produced = sorted((work / "out").glob("*.csv")) if (work / "out").is_dir() else []
        wanted = [p for p in produced if p.stem == f"book-{sheet_name}"] or produced
        if not wanted:
            raise RuntimeError(f"LibreOffice wrote no CSV for {workbook_path.name}: {proc.log_tail(400) or 'no output'}")
        return wanted[0].read_text(encoding="utf-8-sig", errors="replace")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def printed_lines(text: str, *, ignore_case: bool) -> list[str]:
    """Lines stripped of surrounding spaces, without trailing empty lines (how sheet prints compare)."""
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return [line.lower() for line in lines] if ignore_case else lines


def _sheet_print_equal(args: kinds.SheetPrintEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = load_workbook(probe, args.path, report)
    sheet = open_sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    number = workbook.worksheets.index(sheet) + 1
    printed = export_sheet_csv(probe.resolve_path(args.path), number, sheet.title)
    got = printed_lines(printed, ignore_case=args.ignore_case)
    want = printed_lines(probe.task_file(args.expected).read_text(encoding="utf-8-sig", errors="replace"),
                         ignore_case=args.ignore_case)
    report["observed"] = {"sheet": sheet.title, "lines": len(got), "printed": cut("\n".join(got))}
    differences = [f"line {i + 1} is {cut(a)!r}, expected {cut(b)!r}" for i, (a, b) in enumerate(zip(got, want)) if a != b]
    if len(got) != len(want):
        differences.append(f"{len(got)} line(s), expected {len(want)}")
    verdict(report, differences, ok=f"{sheet.title} prints as {args.expected} ({len(got)} lines)")


HANDLERS: dict[type, Any] = {
    kinds.ChartEqualArgs: _chart_equal,
    kinds.PivotEqualArgs: _pivot_equal,
    kinds.StyleEqualArgs: _style_equal,
    kinds.FreezeEqualArgs: _freeze_equal,
    kinds.FilterEqualArgs: _filter_equal,
    kinds.RowsEqualArgs: _rows_equal,
    kinds.ColumnsEqualArgs: _columns_equal,
    kinds.SheetZoomArgs: _sheet_zoom,
    kinds.DataValidationArgs: _data_validation,
    kinds.CellPropsArgs: _cell_props,
    kinds.SheetPrintEqualArgs: _sheet_print_equal,
}

__all__ = ["HANDLERS", "chart_summary", "export_sheet_csv", "load_workbook", "open_sheet", "pivot_summary", "sheet_pair"]
