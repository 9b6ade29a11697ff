"""The MiniWoB++ page protocol: how a task page's episode is started, seeded and read.

Both the environment (:mod:`gui_agent.envs.browser.miniwob`, async Playwright) and the
recorder (:mod:`gui_agent.recorder.miniwob_page`, a person at a headed browser, sync Playwright)
drive task pages with these scripts, so a recording starts from exactly the state an
agent's episode with the same seed does. The protocol is the ``miniwob`` package's own
(``miniwob/selenium_instance.py``):

1. ``core.endEpisode(0)`` stops a running episode (no-op on a fresh page);
2. ``Math.seedrandom(seed)`` seeds the page's RNG, ``core.setDataMode(mode)`` picks the split;
3. ``core.startEpisodeReal()`` generates the problem; we wait until ``WOB_TASK_READY``;
4. the instruction is ``core.getUtterance()`` (a string, or a dict with ``utterance``);
5. after each action ``WOB_DONE_GLOBAL`` says whether the page ended the episode, with
   ``WOB_RAW_REWARD_GLOBAL`` (the task's reward, -1..1) and ``WOB_REWARD_GLOBAL`` (the
   same, scaled down by elapsed time in some tasks).
"""

from __future__ import annotations

#: Largest setTimeout delay browsers honour (2**31 - 1 ms); larger values fire at once.
MAX_TIMER_MS = 2**31 - 1

#: How long a task page may take to set ``WOB_TASK_READY`` after ``startEpisodeReal``.
READY_TIMEOUT_S = 5.0

#: Starts a seeded episode: ``page.evaluate(START_EPISODE_JS, [seed, mode, max_time_ms,
#: ready_timeout_ms])`` returns ``{utterance, fields}``.
#:
#: The page's own overlays are hidden: the reward display and the canvases, and the
#: "START" cover that MiniWoB++ lays over the whole task the moment an episode ends. With
#: the cover, the final screen of every episode the page ends is the same black START,
#: won or lost, so the final frame a judge or a reward model reads says nothing; without
#: it, the final frame shows the task as the last action left it.
START_EPISODE_JS = """
async ([seed, mode, maxTimeMs, readyTimeoutMs]) => {
  if (typeof core === 'undefined' || typeof core.startEpisodeReal !== 'function') {
    throw new Error('not a MiniWoB++ page (no core.startEpisodeReal)');
  }
  if (!document.getElementById('gui-agent-miniwob-style')) {
    const style = document.createElement('style');
    style.id = 'gui-agent-miniwob-style';
    style.textContent = '#reward-display, #click-canvas, #attention-canvas, #sync-task-cover { display: none !important; }'
      + ' html { scrollbar-width: none; }';
    document.head.appendChild(style);
  }
  core.endEpisode(0);
  Math.seedrandom(seed);
  core.setDataMode(mode);
  core.EPISODE_MAX_TIME = maxTimeMs;
  core.startEpisodeReal();
  const giveUp = Date.now() + readyTimeoutMs;
  while (WOB_TASK_READY !== true) {
    if (Date.now() > giveUp) throw new Error('the task did not become ready (WOB_TASK_READY)');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const u = core.getUtterance();
  return (u !== null && typeof u === 'object') ? {utterance: String(u.utterance), fields: u.fields || null}
                                               : {utterance: String(u), fields: null};
}
"""

#: The page's verdict: ``done``, ``raw_reward`` (1 solved), ``env_reward`` (time-scaled), ``reason``.
READ_STATE_JS = """
() => ({done: !!WOB_DONE_GLOBAL, raw_reward: WOB_RAW_REWARD_GLOBAL, env_reward: WOB_REWARD_GLOBAL,
        reason: (WOB_REWARD_REASON === undefined || WOB_REWARD_REASON === null) ? null : String(WOB_REWARD_REASON)})
"""


__all__ = ["MAX_TIMER_MS", "READY_TIMEOUT_S", "READ_STATE_JS", "START_EPISODE_JS"]
