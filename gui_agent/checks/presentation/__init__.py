"""The presentation family: checks of presentations the agent saved (Impress, ``.pptx``
read with python-pptx) and of LibreOffice's own settings.

* ``models``: what a task file may write;
* ``judging``: the checks judged, and their registrations (``CHECKS``).
"""
