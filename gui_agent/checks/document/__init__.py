"""The document family: checks of text documents the agent saved (Writer's ``.docx`` and
``.odt``), compared with a reference document or against formats.

* ``models``, ``structure_models``, ``score_models``: what a task file may write (text
  and formats; tables, pictures, sentences, records, OCR; scored comparisons);
* ``parts``: the plain model of a document; ``reader`` (``docx_reader``, ``odt_reader``)
  makes it from a file; ``loading`` opens the saved and the reference document;
* ``judging`` (with ``structure``, ``scoring``, ``ocr``): the judges, and the family's
  registrations (``CHECKS``); ``colors`` and ``similarity``: colour differences and the
  text similarity OSWorld scores with.
"""
