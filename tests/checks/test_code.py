"""The code family's checks (OSWorld's metrics/vscode.py), each on real files the test
makes: one that passes and one that fails for the reason the check names. The extension
list is read from a real code-server (``code --list-extensions``) after a real
``code --install-extension`` of a .vsix the test builds."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import matplotlib
import pytest

from gui_agent.envs.desktop.apps.vscode import CODE_SERVER, EXTENSIONS, USER_DATA, code_script
from tests.checks.check_helpers import FolderProbe, check, passes

matplotlib.use("Agg")


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    (tmp_path / "task").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def shipped(probe: FolderProbe, name: str, data: str | bytes) -> str:
    target = probe.task_dir / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data if isinstance(data, bytes) else data.encode())
    return name


# ---------------------------------------------------------------------- text_file_equal


def test_text_file_equal_is_the_whole_text(probe: FolderProbe) -> None:
    gold = shipped(probe, "gold.txt", "a test\nthis test\n")
    probe.write("Desktop/doc.txt", "a test\nthis test\n")
    assert passes({"text_file_equal": {"path": "Desktop/doc.txt", "expected": gold}}, probe, "vscode")
    probe.write("Desktop/doc.txt", "a test\nthis text\n")
    report = check({"text_file_equal": {"path": "Desktop/doc.txt", "expected": gold}}, probe, "vscode")
    assert not report["passed"] and "character" in report["reason"]
    probe.write("Desktop/doc.txt", "a test\nthis test")  # the final line break counts
    assert not passes({"text_file_equal": {"path": "Desktop/doc.txt", "expected": gold}}, probe, "vscode")


def test_text_file_equal_options(probe: FolderProbe) -> None:
    gold = shipped(probe, "gold.py", "def f():\n\treturn 1\n")
    probe.write("t.py", "  DEF f():   return 1  ")
    spec = {"path": "t.py", "expected": gold}
    assert not passes({"text_file_equal": {**spec, "ignore_blanks": True}}, probe, "vscode")
    assert not passes({"text_file_equal": {**spec, "ignore_case": True}}, probe, "vscode")
    assert passes({"text_file_equal": {**spec, "ignore_blanks": True, "ignore_case": True}}, probe, "vscode")
    report = check({"text_file_equal": {"path": "missing.py", "expected": gold}}, probe, "vscode")
    assert not report["passed"] and "does not exist" in report["reason"]


# ---------------------------------------------------------------------- json_settings, vscode_keybinding


def test_json_settings_wants_each_key_equal(probe: FolderProbe) -> None:
    probe.write(".config/Code/User/settings.json", json.dumps(
        {"files.autoSave": "afterDelay", "files.autoSaveDelay": 500, "files.exclude": {"**/__pycache__": True, "**/.git": True}}, indent=4))
    spec = {"path": ".config/Code/User/settings.json"}
    assert passes({"json_settings": {**spec, "expected": {"files.autoSave": "afterDelay", "files.autoSaveDelay": 500}}}, probe, "vscode")
    report = check({"json_settings": {**spec, "expected": {"files.autoSaveDelay": 1000}}}, probe, "vscode")
    assert not report["passed"] and "files.autoSaveDelay is 500, expected 1000" in report["reason"]
    # a nested object is one value: it must be equal whole (OSWorld's dict.update)
    report = check({"json_settings": {**spec, "expected": {"files.exclude": {"**/__pycache__": True}}}}, probe, "vscode")
    assert not report["passed"]
    assert not passes({"json_settings": {**spec, "expected": {"editor.wordWrapColumn": 50}}}, probe, "vscode")


def test_json_settings_unreadable_files_fail(probe: FolderProbe) -> None:
    probe.write("settings.json", '{\n  // a comment\n  "editor.wordWrapColumn": 50\n}')
    report = check({"json_settings": {"path": "settings.json", "expected": {"editor.wordWrapColumn": 50}}}, probe, "vscode")
    assert not report["passed"] and "not JSON" in report["reason"]
    probe.write("settings.json", "[1, 2]")
    assert not passes({"json_settings": {"path": "settings.json", "expected": {"a": 1}}}, probe, "vscode")
    assert not passes({"json_settings": {"path": "none.json", "expected": {"a": 1}}}, probe, "vscode")


def test_json_settings_on_a_workspace_file(probe: FolderProbe) -> None:
    probe.write("project.code-workspace", json.dumps({"folders": [{"path": "project"}, {"path": "data1"}, {"path": "data2"}], "settings": {}}))
    want = {"folders": [{"path": "project"}, {"path": "data1"}, {"path": "data2"}]}
    assert passes({"json_settings": {"path": "project.code-workspace", "expected": want}}, probe, "vscode")
    probe.write("project.code-workspace", json.dumps({"folders": [{"path": "project"}, {"path": "data2"}, {"path": "data1"}]}))
    assert not passes({"json_settings": {"path": "project.code-workspace", "expected": want}}, probe, "vscode")


BINDING = {"key": "ctrl+j", "command": "workbench.action.focusActiveEditorGroup", "when": "terminalFocus"}


def test_vscode_keybinding_reads_vs_codes_file_with_its_comment(probe: FolderProbe) -> None:
    path = ".config/Code/User/keybindings.json"
    probe.write(path, "// Place your key bindings in this file to override the defaults\n" + json.dumps([BINDING], indent=4))
    assert passes({"vscode_keybinding": {"path": path, "binding": BINDING}}, probe, "vscode")
    probe.write(path, json.dumps([{**BINDING, "when": "editorFocus"}]))
    report = check({"vscode_keybinding": {"path": path, "binding": BINDING}}, probe, "vscode")
    assert not report["passed"] and "none equal" in report["reason"]
    probe.write(path, json.dumps([{**BINDING, "args": {}}]))  # an entry equal as a whole, not a superset
    assert not passes({"vscode_keybinding": {"path": path, "binding": BINDING}}, probe, "vscode")
    probe.write(path, json.dumps(BINDING))
    report = check({"vscode_keybinding": {"path": path, "binding": BINDING}}, probe, "vscode")
    assert not report["passed"] and "no JSON list" in report["reason"]


# ---------------------------------------------------------------------- result_file_equal, html_background_image


@pytest.mark.parametrize(("got", "want", "ok"), [
    ("The median price is 25.5\n", "25.5", True),   # the expected number's text is in the result
    ("25.50001", "25.5", True),                      # within 1e-4
    ("25.6", "25.5", False),
    ("median: 25.6", "25.5", False),
    ("  done \n", "done", True),                     # not a number: equal once stripped
    ("Done", "done", False),
])
def test_result_file_equal(probe: FolderProbe, got: str, want: str, ok: bool) -> None:
    probe.write("Desktop/result.txt", got)
    gold = shipped(probe, "result_gold.txt", want + "\n")
    assert passes({"result_file_equal": {"path": "Desktop/result.txt", "expected": gold}}, probe, "vscode") is ok


def test_html_background_image(probe: FolderProbe) -> None:
    page = "<html><head><style>\nbody {{ {} }}\n</style></head><body><p>hi</p></body></html>"
    probe.write("Desktop/index.html", page.format("background-image: url('anmi_sharper.png');"))
    spec = {"html_background_image": {"path": "Desktop/index.html", "image": "anmi_sharper.png"}}
    assert passes(spec, probe, "vscode")
    probe.write("Desktop/index.html", page.format('background-image: url("anmi_sharper.png");'))  # written otherwise
    assert not passes(spec, probe, "vscode")
    probe.write("Desktop/index.html", "<html><body style=\"background-image: url('anmi_sharper.png')\"></body></html>")
    report = check(spec, probe, "vscode")  # only <style> elements count
    assert not report["passed"] and "0 <style>" in report["reason"]


# ---------------------------------------------------------------------- zip_equal


def make_pdf(path: Path, text: str) -> bytes:
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure = plt.figure(figsize=(6, 3))
        figure.text(0.05, 0.5, text)
        figure.savefig(path, format="pdf")
        plt.close(figure)
    return path.read_bytes()


def make_zip(path: Path, entries: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def test_zip_equal_bytes_and_pdf_text(probe: FolderProbe, tmp_path: Path) -> None:
    essay = make_pdf(tmp_path / "a.pdf", "Recruitment and retention of health professionals across Europe")
    same_text = make_pdf(tmp_path / "b.pdf", "Recruitment and retention of health professionals across Europe")
    other = make_pdf(tmp_path / "c.pdf", "A different essay altogether, about nothing")
    make_zip(probe.task_dir / "gold.zip", {"essay.pdf": essay, "notes.txt": b"v1\n"})
    spec = {"zip_equal": {"path": "submit.zip", "expected": "gold.zip"}}
    make_zip(probe.home / "submit.zip", {"essay.pdf": same_text, "notes.txt": b"v1\n"})
    assert passes(spec, probe, "vscode")
    make_zip(probe.home / "submit.zip", {"essay.pdf": other, "notes.txt": b"v1\n"})
    report = check(spec, probe, "vscode")
    assert not report["passed"] and "essay.pdf: its text" in report["reason"]
    make_zip(probe.home / "submit.zip", {"essay.pdf": essay, "notes.txt": b"v2\n"})
    assert "notes.txt differs" in check(spec, probe, "vscode")["reason"]
    make_zip(probe.home / "submit.zip", {"essay.pdf": essay})
    assert "entry notes.txt is missing" in check(spec, probe, "vscode")["reason"]
    probe.write("submit.zip", "not a zip")
    assert "not a zip archive" in check(spec, probe, "vscode")["reason"]


# ---------------------------------------------------------------------- python_test_suite


SUITE = """
from snake import Snake

def test():
    snake = Snake()
    snake.eat()
    return snake.length == 2
"""


def test_python_test_suite_runs_beside_the_users_files(probe: FolderProbe) -> None:
    suite = shipped(probe, "inputs/test_suite.py", SUITE)
    spec = {"python_test_suite": {"files": [{"path": "Desktop/snake/snake.py", "name": "snake.py"}], "suite": suite}}
    probe.write("Desktop/snake/snake.py", "class Snake:\n    length = 1\n    def eat(self):\n        self.length += 1\n")
    report = check(spec, probe, "vscode")
    assert report["passed"], report
    assert report["reason"] == "test() returned True"
    probe.write("Desktop/snake/snake.py", "class Snake:\n    length = 1\n    def eat(self):\n        pass\n")
    report = check(spec, probe, "vscode")
    assert not report["passed"] and report["reason"] == "test() returned False"
    probe.write("Desktop/snake/snake.py", "class Snake:\n    def eat(self):\n        raise RuntimeError('bug')\n")
    report = check(spec, probe, "vscode")
    assert not report["passed"] and "raised RuntimeError('bug')" in report["reason"]
    probe.write("Desktop/snake/snake.py", "import os\nos._exit(0)\n")  # it cannot end our own Python
    report = check(spec, probe, "vscode")
    assert not report["passed"] and report["observed"]["returncode"] == 0
    assert "before saying what test() returned" in report["reason"]


def test_python_test_suite_is_bounded_in_time(probe: FolderProbe) -> None:
    suite = shipped(probe, "test_suite.py", "import main\n\ndef test():\n    return main.run()\n")
    probe.write("main.py", "def run():\n    while True:\n        pass\n")
    spec = {"python_test_suite": {"files": [{"path": "main.py", "name": "main.py"}], "suite": suite, "timeout_s": 2}}
    report = check(spec, probe, "vscode")
    assert not report["passed"] and "ran past 2 s" in report["reason"]
    report = check({"python_test_suite": {"files": [{"path": "none.py", "name": "none.py"}], "suite": suite}}, probe, "vscode")
    assert not report["passed"] and "none.py" in report["reason"]


# ---------------------------------------------------------------------- extensions through code-server's CLI


def make_vsix(path: Path, publisher: str, name: str) -> Path:
    """A real, minimal VS Code extension package (what ``vsce package`` writes, less the icon)."""
    manifest = (
        '<?xml version="1.0" encoding="utf-8"?>\n<PackageManifest Version="2.0.0" '
        'xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">\n  <Metadata>\n'
        f'    <Identity Language="en-US" Id="{name}" Version="0.0.1" Publisher="{publisher}"/>\n'
        f'    <DisplayName>{name}</DisplayName>\n    <Description xml:space="preserve">test</Description>\n'
        '  </Metadata>\n  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>\n'
        '  <Dependencies/>\n  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" '
        'Addressable="true"/></Assets>\n</PackageManifest>\n')
    package = {"name": name, "version": "0.0.1", "publisher": publisher, "engines": {"vscode": "^1.60.0"}}
    return make_zip(path, {
        "extension.vsixmanifest": manifest.encode(),
        "[Content_Types].xml": b'<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                               b'package/2006/content-types"><Default Extension=".json" ContentType="application/json"/>'
                               b'<Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>',
        "extension/package.json": json.dumps(package).encode(),
    })


@pytest.mark.slow
def test_extension_list_from_code_server(probe: FolderProbe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert CODE_SERVER.is_file(), "scripts/install_code_server.sh installs code-server (scripts/setup.sh runs it)"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "code").write_text(code_script())
    (bin_dir / "code").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HOME", str(probe.home))  # the episode's home, as on the desktop
    (probe.home / USER_DATA / "User").mkdir(parents=True)
    (probe.home / EXTENSIONS).mkdir(parents=True)
    listing = {"command_output": {"command": ["code", "--list-extensions", "|", "grep", "undefined_publisher.test"], "strip": False}}
    installed = {"value": {"of": listing, "include": ["undefined_publisher.test"]}}
    assert not passes(installed, probe, "vscode")
    vsix = make_vsix(probe.home / "test.vsix", "undefined_publisher", "test")
    done = probe.run_command(["code", "--install-extension", str(vsix)], timeout_s=60)
    assert done.returncode == 0, done.stderr
    assert (probe.home / EXTENSIONS / "undefined_publisher.test-0.0.1" / "package.json").is_file()
    assert passes(installed, probe, "vscode")
    assert not passes({"value": {"of": listing, "exclude": ["undefined_publisher.test"]}}, probe, "vscode")
