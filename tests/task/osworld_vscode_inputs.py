"""Locally made inputs for the imported OSWorld vscode tasks the end-to-end tests run (the
real ones are on the internet), written where the import declares them (``inputs/NAME``)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

#: 0ed39f63's document: "text" four times (lower case only, as the replacement is), and words
#: that merely contain it ("texts", "context"), which Replace All changes too.
REPLACE_TEXT = (
    "This is a text file.\n"
    "Each line of text here has the word text in it,\n"
    "and the context around it is plain texts.\n"
)


def replace_text(inputs: Path) -> None:
    """0ed39f63: the document and the expected one (every "text" is "test")."""
    inputs.mkdir(parents=True, exist_ok=True)
    (inputs / "vscode_replace_text.txt").write_text(REPLACE_TEXT)
    (inputs / "vscode_replace_text_gold.txt").write_text(REPLACE_TEXT.replace("text", "test"))


#: The evaluation extension's command (OSWorld's ``vscode_extension_command``): it writes the
#: name of the folder (or workspace) open in the window to ``~/OpenProject.txt``.
EVAL_EXTENSION_JS = """
const vscode = require('vscode');
const fs = require('fs');
const os = require('os');
const path = require('path');
exports.activate = function (context) {
  context.subscriptions.push(vscode.commands.registerCommand('eval.openProject', function () {
    fs.writeFileSync(path.join(os.homedir(), 'OpenProject.txt'), vscode.workspace.name || '');
  }));
};
exports.deactivate = function () {};
"""


def vsix(publisher: str, name: str, *, commands: dict[str, str] | None = None, main_js: str | None = None) -> bytes:
    """A VS Code extension package (what ``vsce package`` writes, less the icon): its manifest,
    content types, and the extension's package.json (and code)."""
    package: dict[str, object] = {"name": name, "displayName": name, "version": "0.0.1", "publisher": publisher,
                                  "engines": {"vscode": "^1.60.0"}}
    if commands:
        package.update(main="./extension.js", activationEvents=[f"onCommand:{c}" for c in commands],
                       contributes={"commands": [{"command": c, "title": t} for c, t in commands.items()]})
    manifest = (
        '<?xml version="1.0" encoding="utf-8"?>\n<PackageManifest Version="2.0.0" '
        'xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">\n  <Metadata>\n'
        f'    <Identity Language="en-US" Id="{name}" Version="0.0.1" Publisher="{publisher}"/>\n'
        f'    <DisplayName>{name}</DisplayName>\n    <Description xml:space="preserve">{name}</Description>\n'
        '  </Metadata>\n  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>\n'
        '  <Dependencies/>\n  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" '
        'Addressable="true"/></Assets>\n</PackageManifest>\n')
    content_types = ('<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                     'content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" '
                     'ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>')
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("extension.vsixmanifest", manifest)
        archive.writestr("[Content_Types].xml", content_types)
        archive.writestr("extension/package.json", json.dumps(package))
        if main_js is not None:
            archive.writestr("extension/extension.js", main_js)
    return data.getvalue()


def open_project(inputs: Path) -> None:
    """53ad5833: the evaluation extension (a zip holding its .vsix, installed by the setup) and
    the project's files."""
    inputs.mkdir(parents=True, exist_ok=True)
    extension = vsix("eval", "eval", commands={"eval.openProject": "OpenProject"}, main_js=EVAL_EXTENSION_JS)
    with zipfile.ZipFile(inputs / "vscodeEvalExtension.zip", "w") as archive:
        archive.writestr("vscodeEvalExtension/eval-0.0.1.vsix", extension)
    (inputs / "main.py").write_text('print("hello from the project")\n')
    (inputs / "README.md").write_text("# project\n")
    (inputs / "settings.json").write_text(json.dumps({"editor.tabSize": 4}) + "\n")


def nothing(inputs: Path) -> None:
    """Settings and key bindings tasks: VS Code alone, no file."""


#: OSWorld id -> the maker of its inputs.
MAKERS: dict[str, Callable[[Path], None]] = {
    "276cc624-87ea-4f08-ab93-f770e3790175": nothing,
    "930fdb3b-11a8-46fe-9bac-577332e2640e": nothing,
    "0ed39f63-6049-43d4-ba4d-5fa2fe04a951": replace_text,
    "53ad5833-3455-407b-bbc6-45b4c79ab8fb": open_project,
}
