"""A flat snapshot of the visible DOM elements of a page, with their pixel boxes.

Used for observations that ask for the DOM (scripted oracles, grounding labels) and for
recording a click's target. Policies that are "pixel-in" never see it at inference.

Each element is a dict: ``ref`` (stable within the snapshot), ``parent`` (ref or None),
``tag`` (lower case), ``id``, ``classes``, ``text`` (own text, trimmed), ``value``,
``type``, ``checked``, ``focused``, ``disabled``, ``name``, ``role``, ``href``,
``bbox`` [x, y, width, height] in CSS pixels of the viewport, ``visible``,
``selected`` (options only, else None) and ``scroll`` ([scrollLeft, scrollTop, scrollWidth,
scrollHeight, clientWidth, clientHeight] for elements whose content overflows a box that
clips it, else None: scrolled lists and text areas, and the clipping box of their children).
"""

from __future__ import annotations

from typing import Any

DOM_SNAPSHOT_JS = r"""
() => {
  const out = [];
  const refs = new Map();
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'HEAD', 'META', 'LINK', 'TITLE']);
  function ownText(el) {
    let t = '';
    for (const n of el.childNodes) if (n.nodeType === 3) t += n.textContent;
    return t.replace(/\s+/g, ' ').trim();
  }
  function scrollInfo(el, style) {
    const overflows = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
    const clips = ['auto', 'scroll', 'hidden'].includes(style.overflowY) ||
      ['auto', 'scroll', 'hidden'].includes(style.overflowX) ||
      el.tagName === 'SELECT' || el.tagName === 'TEXTAREA';
    if (!overflows || !clips || el === document.body || el === document.documentElement) return null;
    return [el.scrollLeft, el.scrollTop, el.scrollWidth, el.scrollHeight, el.clientWidth, el.clientHeight];
  }
  function walk(el, parentRef) {
    if (skip.has(el.tagName)) return;
    const r = el.getBoundingClientRect();
    const style = window.getComputedStyle(el);
    const visible = r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    const ref = out.length;
    refs.set(el, ref);
    out.push({
      ref: ref, parent: parentRef, tag: el.tagName.toLowerCase(), id: el.id || '',
      classes: el.getAttribute('class') || '',  // className is an object on SVG elements
      text: ownText(el),
      value: ('value' in el && typeof el.value === 'string') ? el.value : null,
      type: el.getAttribute('type'),
      checked: ('checked' in el) ? !!el.checked : null,
      focused: document.activeElement === el,
      disabled: !!el.disabled,
      name: el.getAttribute('name'),
      role: el.getAttribute('role'),
      href: el.getAttribute('href'),
      bbox: [r.left, r.top, r.width, r.height],
      visible: visible,
      selected: (el.tagName === 'OPTION') ? !!el.selected : null,
      scroll: scrollInfo(el, style),
    });
    for (const child of el.children) walk(child, ref);
  }
  if (document.body) walk(document.body, null);
  return out;
}
"""


def snapshot_dom(page: Any) -> list[dict[str, Any]]:
    """Return the flat element list of a Playwright page (see the module docstring)."""
    return page.evaluate(DOM_SNAPSHOT_JS)
