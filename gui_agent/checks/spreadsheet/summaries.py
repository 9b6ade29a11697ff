"""Spreadsheet features as plain data (openpyxl objects in, dicts and lists out): charts,
pivot tables, cell styles (conditional formats included), frozen panes, auto-filters,
row and column properties.

Two sheets are alike in an aspect when their summaries are equal, so the comparisons
(:mod:`gui_agent.checks.spreadsheet.comparisons`) only diff summaries.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gui_agent.checks.spreadsheet.refs import column_name


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


def _axis_title(axis_name: str, chart: Any) -> str | None:
    return _rich_text(getattr(getattr(chart, f"{axis_name}_axis", None), "title", None))


def _anchor(chart: Any) -> list[Any]:
    """Where the chart is drawn: how it moves with the cells (``editAs``), and the columns
    and rows of its top-left and bottom-right corners."""
    start, end = getattr(chart.anchor, "_from", None), getattr(chart.anchor, "to", None)
    return [getattr(chart.anchor, "editAs", None), getattr(start, "col", None), getattr(start, "row", None),
            getattr(end, "col", None), getattr(end, "row", None)]


#: Chart property -> how to read it from an openpyxl chart.
_CHART_READERS: dict[str, Callable[[Any], Any]] = {
    "type": lambda chart: chart.tagname,
    "title": lambda chart: _rich_text(chart.title),
    "legend": lambda chart: chart.legend.position if chart.legend is not None else None,
    "xtitle": partial(_axis_title, "x"),
    "ytitle": partial(_axis_title, "y"),
    "ztitle": partial(_axis_title, "z"),
    "direction": lambda chart: getattr(chart, "barDir", None),
    "width": lambda chart: chart.width,
    "height": lambda chart: chart.height,
    "anchor": _anchor,
}


def chart_summary(sheet: Any, props: list[str]) -> dict[str, dict[str, Any]]:
    """Series text (``values,categories;...``) -> the chosen properties, for each chart of ``sheet``."""
    charts: dict[str, dict[str, Any]] = {}
    for chart in getattr(sheet, "_charts", []):
        series = ";".join(f"{_ref(s.val)},{_ref(s.cat)}" for s in chart.series)
        charts[series] = {prop: _CHART_READERS[prop](chart) for prop in props if prop in _CHART_READERS}
    return charts


def pivot_summary(sheet: Any, props: list[str]) -> dict[str, dict[str, Any]]:
    """Source (type, range, sheet) -> the chosen properties, for each pivot table of ``sheet``.

    Source fields no item of the table uses at either end of the source range are left
    out (and field numbers shifted), so a table over A:D and the same one over A:E with
    an unused E are alike, as they are for a person.
    """
    tables: dict[str, dict[str, Any]] = {}
    for table in getattr(sheet, "_pivots", []):
        used = [[(item.h, item.x) for item in (field.items or []) if item.x is not None] for field in table.pivotFields]
        lead = next((i for i, u in enumerate(used) if u), len(used))
        trail = next((i for i, u in enumerate(reversed(used)) if u), 0)
        tables[_pivot_source(table, lead, trail)] = _pivot_info(table, set(props), used[lead:len(used) - trail], lead)
    return tables


def _pivot_source(table: Any, lead: int, trail: int) -> str:
    """The table's source (type, range, sheet), its unused leading and trailing fields left out."""
    from openpyxl.utils import coordinate_to_tuple

    source = table.cache.cacheSource
    ws_source = source.worksheetSource
    first, _, last = (ws_source.ref or ":").partition(":")
    start = coordinate_to_tuple(first) if first else (0, 0)
    end = coordinate_to_tuple(last) if last else start
    return f"{source.type};{(start[0], start[1] + lead)}:{(end[0], end[1] - trail)};{ws_source.sheet}"


#: What a pivot table's location holds (compared whole, as OSWorld compares it).
_LOCATION_ATTRS = ("ref", "firstHeaderRow", "firstDataRow", "firstDataCol", "rowPageCount", "colPageCount")
#: Pivot table properties that are one attribute of the table.
_PIVOT_FLAGS = {"show_total": "visualTotals", "show_empty_row": "showEmptyRow", "show_empty_col": "showEmptyCol",
                "show_headers": "showHeaders"}


def _pivot_info(table: Any, props: set[str], kept: list[list[tuple[Any, Any]]], lead: int) -> dict[str, Any]:
    """The chosen properties of one pivot table; field numbers count from the first used field (``lead``)."""
    info: dict[str, Any] = {"name": table.name} if "name" in props else {}
    info.update({prop: getattr(table, attr) for prop, attr in _PIVOT_FLAGS.items() if prop in props})
    if "location" in props:
        place = table.location
        info["location"] = None if place is None else {attr: getattr(place, attr) for attr in _LOCATION_ATTRS}
    if props & {"selection", "filter"}:
        info["selection"] = kept if "ordered" in props else [sorted(set(u), key=repr) for u in kept]
    if "filter" in props:
        info["filter_fields"] = sorted(f.fld for f in table.pageFields)
    info.update(_pivot_fields(table, props, lead))
    return info


def _pivot_fields(table: Any, props: set[str], lead: int) -> dict[str, Any]:
    """The column, row and data fields of a pivot table, as numbers from its first used source field."""
    info: dict[str, Any] = {}
    for prop, fields in (("col_fields", table.colFields), ("row_fields", table.rowFields)):
        if prop in props:
            numbers = [f.x - lead for f in fields]  # OSWorld shifts the special data field (-2) too
            info[prop] = [n for f, n in zip(fields, numbers) if f.x >= 0] if "ignore_special_fields" in props else numbers
    if "data_fields" in props:
        named = "data_fields_name" in props
        info["data_fields"] = [f"{f.fld - lead};{f.name if named else ''};{f.subtotal};{f.showDataAs}" for f in table.dataFields]
    return info


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
    reader = _STYLE_READERS.get(prop)
    if reader is None:
        raise ValueError(f"unknown style property {prop!r}")
    return reader(prop, cell, dxf)


def _number_format(prop: str, cell: Any, dxf: Any) -> Any:
    """The format of a number cell (not of dates, text or true/false: OSWorld reads it only
    where the cell's type is a number)."""
    if cell.value is None or cell.data_type != "n" or isinstance(cell.value, bool):
        return None
    return dxf.numFmt.formatCode if dxf is not None and dxf.numFmt is not None else cell.number_format


#: ``font_*`` properties -> the openpyxl Font attribute holding them.
_FONT_ATTRS = {"font_name": "name", "font_family": "family", "font_bold": "b", "font_italic": "i", "font_underline": "u",
               "font_size": "sz"}


def _font(prop: str, cell: Any, dxf: Any) -> Any:
    if cell.value is None:
        return None
    font = dxf.font if dxf is not None and dxf.font is not None else cell.font
    if prop == "font_color":
        return _color(font.color)
    got = getattr(font, _FONT_ATTRS[prop])
    return bool(got) if prop in ("font_bold", "font_italic") else got


def _fill_type(prop: str, cell: Any, dxf: Any) -> Any:
    fill = dxf.fill if dxf is not None and dxf.fill is not None else cell.fill
    return getattr(fill, "tagname", None)


def _fill_color(prop: str, cell: Any, dxf: Any) -> str | None:
    """The fill's background (``bgcolor``) or foreground (``fgcolor``) colour; a solid fill
    LibreOffice saves has both the same."""
    fill = dxf.fill if dxf is not None and dxf.fill is not None else cell.fill
    return _color(getattr(fill, "bgColor" if prop == "bgcolor" else "fgColor", None))


def _hyperlink(prop: str, cell: Any, dxf: Any) -> str | None:
    if cell.value is None:
        return None
    return cell.hyperlink.target or "" if cell.hyperlink is not None else ""


def _merged(prop: str, cell: Any, dxf: Any) -> bool:
    from openpyxl.cell.cell import MergedCell

    return isinstance(cell, MergedCell)


#: Style property -> how to read it from a cell (and the conditional format applying to it).
_STYLE_READERS: dict[str, Callable[[str, Any, Any], Any]] = {
    "number_format": _number_format,
    **dict.fromkeys([*_FONT_ATTRS, "font_color"], _font),
    "fill_type": _fill_type,
    "bgcolor": _fill_color,
    "fgcolor": _fill_color,
    "hyperlink": _hyperlink,
    "merge": _merged,
}


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


def freeze_state(sheet: Any) -> dict[str, Any]:
    """What is frozen: ``{"frozen": bool, "columns": n, "rows": n}`` (not where the sheet is scrolled)."""
    pane = sheet.sheet_view.pane
    if pane is None or (pane.state or "").lower() not in ("frozen", "frozensplit"):
        return {"frozen": False, "columns": 0, "rows": 0}
    return {"frozen": True, "columns": int(pane.xSplit or 0), "rows": int(pane.ySplit or 0)}


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
            "ref": sort.ref, "by_columns": sort.columnSort, "case_sensitive": sort.caseSensitive, "method": sort.sortMethod,
            "conditions": [{"ref": c.ref, "descending": c.descending, "by": c.sortBy, "custom_list": c.customList,
                            "dxf_id": c.dxfId, "icon_set": c.iconSet, "icon_id": c.iconId} for c in sort.sortCondition],
        }
    return state


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
