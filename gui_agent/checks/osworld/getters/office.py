"""OSWorld's office getters (``getters/calc.py``, ``getters/impress.py``).

The slide getters (``audio_in_slide``, ``background_image_in_slide``) take a file out of a
presentation for a metric to judge; here the metric's conversion judges it inside the
presentation, so they are listed in :data:`READ_BY_METRICS` rather than as sources.
"""

from __future__ import annotations

from gui_agent.checks.osworld.getters.base import Getter

#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {}
#: Getters a metric's conversion reads itself -> that metric.
READ_BY_METRICS: dict[str, str] = {"audio_in_slide": "compare_audios", "background_image_in_slide": "compare_images"}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "conference_city_in_order": "OSWorld's get_conference_city_in_order reads its CSV after closing it, so it always "
                                "raises (no config uses it; compare_conference_city_in_order takes a rule)",
}
