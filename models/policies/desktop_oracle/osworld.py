"""Oracle scripts for imported OSWorld tasks (``gui-agent import-osworld``), keyboard first.

OSWorld's screen is 1920x1080. The scripts use the apps' shortcuts, the Name Box and
menus that open from the top-left corner (whose positions do not depend on the screen's
width), so they work on any file the task is given. Each solves the task as its
instruction says; the end-to-end tests run them on locally made inputs.
"""

from __future__ import annotations

from gui_agent.actions import Click, Wait
from gui_agent.models.policies.desktop_oracle.calc import VIEW_MENU, go_to
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: View > "Freeze Rows and Columns" (freezes above and left of the selected cell).
VIEW_FREEZE_ROWS_AND_COLUMNS = Click(170, 326)


def profit_column() -> list[Item]:
    """1e8df695: a "Profit" column after COGS (D), Sales - COGS for each week."""
    return [*go_to("D1"), type_text("Profit\n"), *go_to("D2:D4"), type_text("=B2-C2\n"), *go_to("D2:D4"), keys("ctrl", "d")]


def freeze_headers() -> list[Item]:
    """4188d3a4: freeze A1:B1, i.e. rows above and columns left of C2."""
    return [*go_to("C2"), VIEW_MENU, VIEW_FREEZE_ROWS_AND_COLUMNS]


def blank_page_after() -> list[Item]:
    """ecc2413d: a page break at the end of the page (Ctrl+End, Ctrl+Enter)."""
    return [keys("ctrl", "end"), keys("ctrl", "enter")]


def center_heading() -> list[Item]:
    """3ef2b351: centre the first paragraph (Ctrl+Home, Ctrl+E)."""
    return [keys("ctrl", "home"), keys("ctrl", "e")]


def page_one_in_content() -> list[Item]:
    """73c99fb9: add a "Page 1" paragraph to slide 2's content box (next slide, Tab to its
    second object, Enter to edit it, Ctrl+End to its end)."""
    return [
        keys("pagedown"), keys("tab"), keys("tab"), keys("enter"), keys("ctrl", "end"), type_text("\nPage 1"),
        keys("escape"), keys("escape"),
    ]


def save_as_pre() -> list[Item]:
    """a097acff: save the open presentation as ~/Desktop/pre.pptx (Save As, a path relative to its folder)."""
    return [
        keys("ctrl", "shift", "s"), WaitForTitle("(?i)^save as$"), keys("ctrl", "a"), type_text("../Desktop/pre.pptx\n"),
        WaitForTitle(r"pre\.pptx"),
    ]


def local_folders() -> list[Item]:
    """2ad9387a: two folders, COMPANY and UNIVERSITY, through File > New > Folder… (Alt shows the menu bar)."""
    items: list[Item] = [WaitForTitle("Mozilla Thunderbird", timeout_s=30.0)]
    for name in ("COMPANY", "UNIVERSITY"):
        items += [keys("alt", "f"), keys("n"), keys("f"), WaitForTitle("New Folder"), type_text(name + "\n"),
                  WaitForTitle("Mozilla Thunderbird")]
    return items


_CALC, _WRITER, _IMPRESS = "osworld.libreoffice_calc.", "osworld.libreoffice_writer.", "osworld.libreoffice_impress."

#: In Thunderbird's Add-ons Manager on a 1920x1080 screen: the "Themes" category, and the
#: "Enable" button of the built-in Dark theme (listed above Light).
THEMES_CATEGORY = Click(116, 288)
ENABLE_DARK = Click(920, 583)


def enable_theme(enable: Click) -> list[Item]:
    """Tools > Add-ons and Themes, the Themes category, then ``enable`` (a pause before each
    click lets the page lay its cards out)."""
    return [
        WaitForTitle("Mozilla Thunderbird", timeout_s=30.0), keys("alt", "t"), keys("a"),
        WaitForTitle("^Add-ons Manager"), Wait(1.0), THEMES_CATEGORY, Wait(1.0), enable, Wait(1.0),
    ]


def dark_theme() -> list[Item]:
    """10a730d5: a complete dark mode, the built-in Dark theme enabled."""
    return enable_theme(ENABLE_DARK)


#: Task id -> the script solving it.
SCRIPTS = {
    _CALC + "1e8df695-bd1b-45b3-b557-e7d599cf7597": profit_column,
    _CALC + "4188d3a4-077d-46b7-9c86-23e1a036f6c1": freeze_headers,
    _WRITER + "ecc2413d-8a48-416e-a3a2-d30106ca36cb": blank_page_after,
    _WRITER + "3ef2b351-8a84-4ff2-8724-d86eae9b842e": center_heading,
    _IMPRESS + "73c99fb9-f828-43ce-b87a-01dc07faa224": page_one_in_content,
    _IMPRESS + "a097acff-6266-4291-9fbd-137af7ecd439": save_as_pre,
    "osworld.thunderbird.2ad9387a-65d8-4e33-ad5b-7580065a27ca": local_folders,
    "osworld.thunderbird.10a730d5-d414-4b40-b479-684bed1ae522": dark_theme,
}
