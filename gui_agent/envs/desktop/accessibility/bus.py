"""The accessibility bus of one desktop: a private D-Bus daemon and the AT-SPI registry.

Apps publish their element trees over AT-SPI, a D-Bus protocol: each app's toolkit
bridge registers with the registry (``at-spi2-registryd``) on the accessibility bus, and a
reader asks the registry for the apps, then each app for its elements. A desktop session
normally has two buses (the session bus, and an accessibility bus that
``at-spi-bus-launcher`` starts on request); here one private ``dbus-daemon`` serves as
both, started only when a task or a run asks for the tree:

* its configuration (written into the session's private folder) listens on a socket in
  that folder and activates no services, so nothing starts that we did not start;
* ``DBUS_SESSION_BUS_ADDRESS`` and ``AT_SPI_BUS_ADDRESS`` both name it, so toolkits
  find it without asking a bus launcher (libatspi, and with it GTK's and Gecko's bridges,
  reads ``AT_SPI_BUS_ADDRESS`` first);
* the daemon and the registry are :class:`~gui_agent.envs.owned_process.OwnedProcess`
  objects, stopped by PID after the apps.

:func:`accessibility_environment` is what an app's environment gains: each toolkit's own
switch (LibreOffice draws with its GTK 3 plugin, since its plain X11 one has no
accessibility; Gecko reads ``GNOME_ACCESSIBILITY``; Chromium ``ACCESSIBILITY_ENABLED``;
GTK 2 apps such as GIMP load the bridge as a GTK module; Qt ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON``).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from gui_agent.envs.desktop.accessibility.atspi import REGISTRY
from gui_agent.envs.desktop.accessibility.connection import BusConnection, Call
from gui_agent.envs.owned_process import OwnedProcess
from gui_agent.errors import EnvDiedError, EnvError
from gui_agent.polling import poll

#: Where Debian's at-spi2-core installs the registry daemon.
REGISTRYD = "/usr/libexec/at-spi2-registryd"
_INSTALL_HINT = "install them with `apt-get install --no-install-recommends dbus-daemon at-spi2-core`"

_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="max_replies_per_connection">50000</limit>
  <limit name="max_match_rules_per_connection">50000</limit>
  <limit name="reply_timeout">300000</limit>
</busconfig>
"""


def _accepts(path: Path) -> bool:
    """Whether a Unix socket at ``path`` takes connections. Its file alone is not enough:
    the daemon binds (the file appears) a moment before it listens, and a connection in
    between is refused."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def accessibility_environment(address: str) -> dict[str, str]:
    """The variables that put an app's accessibility on, over the bus at ``address``."""
    return {
        "DBUS_SESSION_BUS_ADDRESS": address,
        "AT_SPI_BUS_ADDRESS": address,
        "GNOME_ACCESSIBILITY": "1",  # Gecko (Thunderbird, Firefox)
        "ACCESSIBILITY_ENABLED": "1",  # Chromium's browser UI
        "GTK_MODULES": "gail:atk-bridge",  # GTK 2 apps (GIMP 2.10); GTK 3 loads the bridge itself
        "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",  # Qt apps (VLC)
        "SAL_USE_VCLPLUGIN": "gtk3",  # LibreOffice: its plain X11 plugin ("gen") has no accessibility
    }


class AccessibilityBus:
    """A private bus daemon and the AT-SPI registry on it.

    Args:
        private_dir: the session's private folder (config, socket and logs go there).
        env: the environment to start them with (the apps' environment: its display).
        timeout_s: limit for both to come up.
    """

    def __init__(self, private_dir: Path, *, env: dict[str, str], timeout_s: float = 15.0) -> None:
        self.folder = private_dir / "a11y"
        self.env = dict(env)
        self.timeout_s = timeout_s
        self.daemon: OwnedProcess | None = None
        self.registry: OwnedProcess | None = None

    @property
    def address(self) -> str:
        return f"unix:path={self.folder / 'bus'}"

    def start(self) -> None:
        """Start the daemon, then the registry; return once the registry owns its name.

        Raises:
            EnvError: a program is missing or did not come up within the limit.
        """
        deadline = time.monotonic() + self.timeout_s
        self.folder.mkdir(mode=0o700)
        config = self.folder / "bus.conf"
        config.write_text(_CONFIG.format(socket=self.folder / "bus"))
        self.daemon = OwnedProcess(["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={config}"],
                                   name="D-Bus daemon", env=self.env, log_path=self.folder / "dbus.log",
                                   install_hint=_INSTALL_HINT)
        self.daemon.start()
        if not poll(lambda: _accepts(self.folder / "bus") or not self.daemon.is_alive(), timeout_s=self.timeout_s):  # type: ignore[union-attr]
            raise EnvError(f"the D-Bus daemon did not accept connections within {self.timeout_s:g} s")
        self._check(self.daemon)
        env = {**self.env, **accessibility_environment(self.address)}
        env.pop("NO_AT_BRIDGE", None)
        self.registry = OwnedProcess([REGISTRYD], name="AT-SPI registry", env=env,
                                     log_path=self.folder / "registry.log", install_hint=_INSTALL_HINT)
        self.registry.start()
        if not poll(lambda: self._registry_ready(deadline), timeout_s=max(0.0, deadline - time.monotonic())):
            self._check(self.registry)
            raise EnvError(f"the AT-SPI registry did not come up within {self.timeout_s:g} s: {self.registry.log_tail(400)}")

    def _registry_ready(self, deadline: float) -> bool:
        self._check(self.registry)
        ask = Call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", (REGISTRY,))
        with BusConnection(self.address, timeout_s=max(0.1, deadline - time.monotonic())) as bus:
            (reply,) = bus.call_many([ask], deadline=deadline)
        return reply is not None and not reply.is_error and bool(reply.body[0])

    @staticmethod
    def _check(proc: OwnedProcess | None) -> None:
        if proc is not None and not proc.is_alive():
            raise EnvDiedError(f"the {proc.name} exited at start ({proc.returncode()}): {proc.log_tail(400)}")

    def check_alive(self) -> None:
        """Raise :class:`EnvDiedError` if the daemon or the registry died."""
        for proc in (self.daemon, self.registry):
            if proc is not None and not proc.is_alive():
                raise EnvDiedError(f"the {proc.name} died ({proc.returncode()}): {proc.log_tail(400)}")

    def pids(self) -> list[int]:
        return [pid for proc in (self.daemon, self.registry) if proc is not None for pid in proc.members()]

    def kill(self) -> None:
        """SIGKILL both at once (a hang); :meth:`stop` still reaps them."""
        for proc in (self.registry, self.daemon):
            if proc is not None:
                proc.kill()

    def stop(self) -> None:
        """Stop the registry, then the daemon (after the apps: they talk to both)."""
        for proc in (self.registry, self.daemon):
            if proc is not None:
                proc.stop(grace_s=0.5)


__all__ = ["REGISTRYD", "AccessibilityBus", "accessibility_environment"]
