"""LibreOffice Writer: documents (``.docx``, ``.odt``), for OSWorld's Writer tasks and ours.

It is one more module of the same LibreOffice (:func:`~.libreoffice.libreoffice_app`):
same quiet profile, same process per episode. Debian package ``libreoffice-writer``.
"""

from __future__ import annotations

from gui_agent.envs.desktop.apps.libreoffice import libreoffice_app

WRITER = libreoffice_app(
    name="writer", module="writer", title="LibreOffice Writer", package="libreoffice-writer", library="libswlo.so",
)

__all__ = ["WRITER"]
