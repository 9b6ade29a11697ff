"""gui-agent: record, run, replay, train and export GUI-agent trajectories.

Importing this package loads neither torch nor transformers nor Playwright; heavy parts
are imported by the modules and commands that need them.
"""

__version__ = "0.1.0"
