"""The document family: checks of text documents the agent saved (Writer's ``.docx`` and
``.odt``), compared with a reference document or against formats.

* ``models``: what a task file may write;
* ``reader``: a ``.docx`` or ``.odt`` as one plain model (paragraphs, runs, footers...);
* ``judging``: the checks judged on that model, and their registrations (``CHECKS``).
"""
