"""Real X helpers for the multi-monitor test: RandR 1.5 monitors on one Xvfb screen, and solid windows.

A desktop with several monitors is, to X clients (mss, pynput, xdotool), one root window
with RandR *monitors* carving it up; that is what ``xrandr --setmonitor`` makes and what
mss lists. python-xlib's own ``set_monitor`` cannot pack its request, so the request is
spelled out here (RandR opcode 43, the fields of ``MonitorInfo`` inline).

(Xvfb's ``-screen 0 ... -screen 1 ... +xinerama`` is no substitute: it stacks both screens
at (0, 0), the root stays the size of screen 0, and mss lists one monitor.)
"""

from __future__ import annotations

from typing import Any

from Xlib import X, display
from Xlib.ext import randr
from Xlib.protocol import rq


class _SetMonitor(rq.Request):
    _request = rq.Struct(
        rq.Card8("opcode"), rq.Opcode(43), rq.RequestLength(), rq.Window("window"),
        rq.Card32("name"), rq.Bool("primary"), rq.Bool("automatic"), rq.LengthOf("crtcs", 2),
        rq.Int16("x"), rq.Int16("y"), rq.Card16("width_in_pixels"), rq.Card16("height_in_pixels"),
        rq.Card32("width_in_millimeters"), rq.Card32("height_in_millimeters"), rq.List("crtcs", rq.Card32Obj),
    )


def set_monitors(display_name: str, rects: list[tuple[int, int, int, int]]) -> list[dict[str, int]]:
    """Replace the screen's monitors by ``rects`` (left, top, width, height); returns what RandR then lists."""
    d = display.Display(display_name)
    try:
        root = d.screen().root
        opcode = d.display.get_extension_major(randr.extname)
        # Xvfb's one output gets the first monitor (which retires the automatic monitor covering
        # the whole screen); the others are monitors without an output, as --setmonitor ... none.
        output = randr.get_screen_resources(root).outputs[0]
        for number, (left, top, width, height) in enumerate(rects):
            _SetMonitor(display=d.display, opcode=opcode, window=root, name=d.intern_atom(f"TEST-{number}"),
                        primary=number == 0, automatic=False, x=left, y=top, width_in_pixels=width,
                        height_in_pixels=height, width_in_millimeters=width // 4, height_in_millimeters=height // 4,
                        crtcs=[output] if number == 0 else [])
        d.sync()
        return [{"left": m.x, "top": m.y, "width": m.width_in_pixels, "height": m.height_in_pixels}
                for m in randr.get_monitors(root, True).monitors]
    finally:
        d.close()


class SolidWindows:
    """Override-redirect windows of one colour each (no window manager needed), mapped until :meth:`close`."""

    def __init__(self, display_name: str, windows: list[tuple[tuple[int, int, int, int], tuple[int, int, int]]]):
        self.d = display.Display(display_name)
        screen = self.d.screen()
        colormap = screen.default_colormap
        self.windows: list[Any] = []
        for (left, top, width, height), (r, g, b) in windows:
            pixel = colormap.alloc_color(r * 257, g * 257, b * 257).pixel
            window = screen.root.create_window(left, top, width, height, 0, screen.root_depth, X.InputOutput,
                                               X.CopyFromParent, background_pixel=pixel, override_redirect=True)
            window.map()
            self.windows.append(window)
        self.d.sync()

    def recolor(self, index: int, rgb: tuple[int, int, int]) -> None:
        """Repaint window ``index`` in another colour."""
        r, g, b = rgb
        pixel = self.d.screen().default_colormap.alloc_color(r * 257, g * 257, b * 257).pixel
        self.windows[index].change_attributes(background_pixel=pixel)
        self.windows[index].clear_area()
        self.d.sync()

    def close(self) -> None:
        self.d.close()
