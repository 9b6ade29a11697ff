"""Recording a human at a screen as trajectories (``gui-agent record`` / ``gui-agent review``).

One module per job: :mod:`.clock` (one monotonic clock), :mod:`.events` (raw event
records), :mod:`.input_events` (pynput -> events), :mod:`.screen` (mss capture, keyframes),
:mod:`.reduce` (events -> canonical actions, pure), :mod:`.privacy` (title masking),
:mod:`.display` (start-up checks), :mod:`.session` (orchestration), :mod:`.recovery`
(after a crash), :mod:`.browser` (headed Chromium with target capture), :mod:`.recording`
(one interface for both, the choice between them, what decides success), :mod:`.errors`
(its exceptions), :mod:`.review` (HTML page) and :mod:`.edit` (trim, relabel). Importing this package loads none of
pynput, mss, python-xlib or Playwright; they load when a recording starts.
"""
