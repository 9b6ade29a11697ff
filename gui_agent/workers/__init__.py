"""Worker pools: run work items on local processes or Ray actors, replacing workers that die.

Generic infrastructure, used by ``gui-agent eval`` (:mod:`gui_agent.evaluate`) and by
``gui-agent make-reward-data`` (:mod:`gui_agent.replay.builder`):

* :mod:`.spec`: what a pool sends to each worker (plain data that builds the worker there);
* :mod:`.work`: work items, the task-affine scheduler, lost-worker accounting;
* :mod:`.local_pool` / :mod:`.ray_pool`: local processes (pinned to CPUs) / Ray actors.

Nothing here imports Ray until a Ray pool is built.
"""
