"""Tasks that click a place on a drawn figure: a grid point, a circle's centre, the point
between two dots. The figure is SVG, so its shapes' boxes are in the DOM snapshot."""

from __future__ import annotations

from gui_agent.actions import Click
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse


def _centre(el: Element) -> tuple[float, float]:
    x, y, width, height = el["bbox"]
    return x + width / 2, y + height / 2


def grid_coordinate(instruction: str, page: PageView) -> Plan:
    """'Click on the grid coordinate (-1,2).' Every grid point is a circle whose id is its coordinate."""
    coordinate = parse(r"Click on the grid coordinate (\(-?\d+,-?\d+\))", instruction).group(1)
    point = page.one("circle", id=coordinate)
    return Plan(f"click the point {coordinate}", [page.click(point)])


#: The pages turn a click at page (x, y) into the figure's point (x, y - 50): they assume the
#: figure starts 50 px down, under the instruction, and at the page's left edge.
_PAGE_TO_FIGURE = (0, 50)


def _mark(page: PageView, point: tuple[float, float], what: str) -> Plan:
    """Click where the page will put ``point`` (page pixels) on its figure, then Submit.

    The figure is not at the page's origin, so the click is shifted by the figure's
    offset; a mark already in the right place (the blue dot) is kept.
    """
    figure_x, figure_y = page.one("svg")["bbox"][:2]
    click = (point[0] - figure_x + _PAGE_TO_FIGURE[0], point[1] - figure_y + _PAGE_TO_FIGURE[1])
    marks = page.find("circle", id="blue-circle")
    if marks:
        mark_x, mark_y = _centre(marks[0])
        placed = (mark_x - figure_x + _PAGE_TO_FIGURE[0], mark_y - figure_y + _PAGE_TO_FIGURE[1])
        if abs(placed[0] - click[0]) <= 1.5 and abs(placed[1] - click[1]) <= 1.5:
            return Plan(f"the {what} is marked; submit", [page.click(page.by_id("subbtn"))])
    return Plan(f"click the {what}, then submit", [Click(*page.pixel(*click)), page.click(page.by_id("subbtn"))])


def circle_center(instruction: str, page: PageView) -> Plan:
    """'Find and click on the center of the circle, then press submit.' The nearer the
    click to the centre, the higher the reward (1 - distance / radius)."""
    circles = page.find("circle", cls="black-circle")
    if len(circles) != 1:
        raise OracleError(f"{len(circles)} circles drawn, expected 1")
    return _mark(page, _centre(circles[0]), "centre of the circle")


def find_midpoint(instruction: str, page: PageView) -> Plan:
    """'Find and click on the shortest mid-point between the two points, then press submit.'"""
    dots = page.find("circle", cls="black-circle")
    if len(dots) != 2:
        raise OracleError(f"{len(dots)} points drawn, expected 2")
    (ax, ay), (bx, by) = _centre(dots[0]), _centre(dots[1])
    return _mark(page, ((ax + bx) / 2, (ay + by) / 2), "mid-point")


SOLVERS = {
    "grid-coordinate": grid_coordinate,
    "circle-center": circle_center,
    "find-midpoint": find_midpoint,
}
