"""Where gui-agent's packages live: one import namespace, ``gui_agent``, over five folders.

The repository keeps its folders (``gui_agent/`` the core; ``models/``, ``replay/``,
``recorder/`` and ``station/`` beside it), but they install and import as
``gui_agent.models``, ``gui_agent.replay``, ``gui_agent.recorder`` and
``gui_agent.station``: top-level names like ``models`` belong to the user (a project's own
``models/`` folder, or another distribution's) and would shadow ours or be shadowed.
Everything else about the distribution is in pyproject.toml.
"""

from setuptools import find_packages, setup

#: Folders beside ``gui_agent/`` that install under its namespace.
NAMESPACED_FOLDERS = ("models", "replay", "recorder", "station")

packages = find_packages(include=["gui_agent", "gui_agent.*"])
package_dir = {"gui_agent": "gui_agent"}
for folder in NAMESPACED_FOLDERS:
    package_dir[f"gui_agent.{folder}"] = folder
    packages += [f"gui_agent.{name}" for name in find_packages(include=[folder, f"{folder}.*"])]

setup(packages=packages, package_dir=package_dir)
