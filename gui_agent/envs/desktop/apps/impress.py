"""LibreOffice Impress: presentations (``.pptx``, ``.odp``), for OSWorld's Impress tasks and ours.

It is one more module of the same LibreOffice (:func:`~.libreoffice.libreoffice_app`):
same quiet profile, same process per episode. Debian package ``libreoffice-impress``.
"""

from __future__ import annotations

from gui_agent.envs.desktop.apps.libreoffice import libreoffice_app

IMPRESS = libreoffice_app(
    name="impress", module="impress", title="LibreOffice Impress", package="libreoffice-impress", library="libsdlo.so",
)

__all__ = ["IMPRESS"]
