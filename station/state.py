"""The station's state: accounts, the queue, the live desktops of taken items.

One :class:`Station` is made per app (:func:`gui_agent.station.app.create_app` keeps it as
``app.state.station``); every endpoint reaches it through its request, so nothing here
is module-level. Its actions run in worker threads, one at a time per item
(:meth:`Station.exclusively`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool

from gui_agent.station.accounts import Account, Accounts
from gui_agent.station.errors import ItemBusy, LiveError
from gui_agent.station.live import LiveDesktop
from gui_agent.station.queue import CLOSED, Item, TaskQueue


class Station:
    """The app's state: accounts, queue, the live desktops of taken items."""

    def __init__(self, accounts: Accounts, queue: TaskQueue, tasks: dict[str, Any], *, idle_pause_s: float | None = None):
        self.accounts = accounts
        self.queue = queue
        self.tasks = tasks  # task file (str) -> loaded Task
        self.idle_pause_s = idle_pause_s  # a recording pauses after this long without input
        self.live: dict[str, LiveDesktop] = {}
        self.busy: set[str] = set()  # items with an action in progress

    # ------------------------------------------------------------------ lookups
    def visible(self, account: Account, item_id: Any) -> Item | None:
        """The item if ``account`` may see it: a reviewer every item, an annotator their own."""
        item = self.queue.get(item_id)
        if item is None or not (account.reviewer or item.annotator == account.name):
            return None  # another annotator's item is as unknown as a made-up id
        return item

    def owned(self, account: Account, item_id: Any) -> Item | None:
        """The item if it is ``account``'s own (only its annotator works on it)."""
        item = self.queue.get(item_id)
        return item if item is not None and item.annotator == account.name else None

    def episode_dir(self, item: Item) -> Path | None:
        """The finished episode's folder, resolved inside DATASET (:meth:`TaskQueue.episode_folder`)."""
        return self.queue.episode_folder(item.episode)

    def describe(self, item: Item) -> dict[str, Any]:
        """The item as the pages read it: the queue's record and its live desktop's state."""
        live = self.live.get(item.item_id)
        return {**item.public(), "live": live.state if live is not None else None,
                "instruction": live.instruction if live is not None and live.instruction else item.instruction,
                "paused": live.paused if live is not None else False,
                "pause_reason": live.pause_reason if live is not None else None,
                "paused_for_viewers": live is not None and live.paused_for_viewers,
                "episode_available": self.episode_dir(item) is not None}

    async def exclusively(self, item: Item, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args)`` in a worker thread, as the only action on ``item`` under way (the
        live desktop, the queue entry and the episode's files are changed by one at a time).

        Raises:
            ItemBusy: another action on the item has not ended.
        """
        if item.item_id in self.busy:
            raise ItemBusy
        self.busy.add(item.item_id)
        try:
            return await run_in_threadpool(fn, *args, **kwargs)
        finally:
            self.busy.discard(item.item_id)

    # ------------------------------------------------------------------ actions (worker threads)
    def take(self, item: Item) -> LiveDesktop:
        if item.status in CLOSED:
            raise LiveError(f"{item.item_id} is already {item.status}")
        existing = self.live.get(item.item_id)
        if existing is not None and existing.state in ("ready", "recording"):
            return existing
        live = LiveDesktop(item_id=item.item_id, task=self.tasks[item.task_file], task_file=Path(item.task_file),
                           seed=item.seed, annotator=item.annotator, repeat=item.repeat, dataset=self.queue.dataset,
                           idle_pause_s=self.idle_pause_s)
        live.open()
        self.queue.take(item.item_id)
        self.live[item.item_id] = live
        return live

    def start(self, item: Item) -> Path:
        live = self.live_desktop(item)
        path = live.start_recording()
        self.queue.add_attempt(item.item_id, path.name)
        return path

    def finish(self, item: Item, *, success: bool, notes: str | None) -> dict[str, Any]:
        live = self.live_desktop(item)
        try:
            outcome = live.finish(success=success, notes=notes)
            if outcome["termination"] == "env_error":
                # The desktop broke (say, the app was killed): not the annotator's doing. The
                # attempt keeps its episode with the reason, and the task is offered again.
                self.queue.close_attempt(item.item_id, "env_failed", status="pending", outcome=outcome)
            else:
                self.queue.close_attempt(item.item_id, "finished", status="done", outcome=outcome)
        finally:
            self._close(item)
        return outcome

    def give_up(self, item: Item, *, notes: str | None) -> dict[str, Any]:
        live = self.live_desktop(item)
        try:
            outcome = live.give_up(notes=notes)
            self.queue.close_attempt(item.item_id, "gave_up", status="given_up", outcome=outcome)
        finally:
            self._close(item)
        return outcome

    def discard(self, item: Item) -> None:
        live = self.live_desktop(item)
        try:
            live.discard()
            self.queue.close_attempt(item.item_id, "discarded", status="pending")
        finally:
            self._close(item)

    def live_desktop(self, item: Item) -> LiveDesktop:
        """The item's open desktop.

        Raises:
            LiveError: the item has none (it was not taken, or was closed).
        """
        live = self.live.get(item.item_id)
        if live is None or live.state == "closed":
            raise LiveError(f"{item.item_id} has no desktop: take it first")
        return live

    def _close(self, item: Item) -> None:
        live = self.live.pop(item.item_id, None)
        if live is not None:
            live.close()
        self.queue.release(item.item_id)

    def close(self) -> None:
        """Stop every live desktop (at shutdown); taken items stay taken in the file and
        go back to pending at the next start."""
        for item_id in list(self.live):
            live = self.live.pop(item_id)
            live.close()
