"""Declared inputs: ``import-osworld --fetch`` downloads them through a resumable cache
(tested against a loopback HTTP server that supports ``Range`` and can cut a transfer),
names what fails; ``gui-agent run`` refuses a task whose inputs are missing."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gui_agent.cli import main
from gui_agent.errors import InputFetchError
from gui_agent.task import load_task
from gui_agent.task.input_fetch import cached_path, download
from gui_agent.task.task_inputs import missing_inputs

PAYLOAD = bytes(range(256)) * 4000  # ~1 MB


class Files(http.server.BaseHTTPRequestHandler):
    """Serves ``server.files``; ``server.cut`` = bytes after which the next transfer of a file breaks."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        server: Any = self.server
        server.requests.append((self.path, self.headers.get("Range")))
        body = server.files.get(self.path)
        if body is None:
            self.send_error(404, "no such file")
            return
        start = int(self.headers["Range"].split("=")[1].rstrip("-")) if self.headers.get("Range") else 0
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        cut = server.cut.pop(self.path, None)
        self.wfile.write(body[start:cut] if cut is not None else body[start:])
        if cut is not None:
            self.wfile.flush()
            self.connection.shutdown(2)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Any]:
    httpd: Any = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
    httpd.files, httpd.cut, httpd.requests = {}, {}, []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def url(server: Any, path: str) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


def test_download_resumes_an_interrupted_transfer(server: Any, tmp_path: Path) -> None:
    server.files["/big.xlsx"] = PAYLOAD
    server.cut["/big.xlsx"] = 300_000
    target = tmp_path / "cache" / "big.xlsx"
    with pytest.raises(InputFetchError, match="resume"):
        download(url(server, "/big.xlsx"), target)
    part = target.with_name("big.xlsx.part")
    assert part.stat().st_size == 300_000 and not target.exists()
    seen: list[int] = []
    assert download(url(server, "/big.xlsx"), target, on_progress=lambda done, total: seen.append(done)) is True
    assert target.read_bytes() == PAYLOAD and not part.exists()
    assert server.requests[-1] == ("/big.xlsx", "bytes=300000-") and seen[-1] == len(PAYLOAD)
    assert download(url(server, "/big.xlsx"), target) is False  # cached: no request
    assert len(server.requests) == 2
    with pytest.raises(InputFetchError, match="only http"):
        download("file:///etc/passwd", tmp_path / "x")


def _config(server: Any, gold: str) -> dict[str, Any]:
    return {
        "id": "fetch-test", "snapshot": "libreoffice_calc", "instruction": "Fill in the sheet.",
        "config": [{"type": "download", "parameters": {"files": [{"url": url(server, "/Sales.xlsx"), "path": "/home/user/Sales.xlsx"}]}},
                   {"type": "open", "parameters": {"path": "/home/user/Sales.xlsx"}}],
        "evaluator": {"func": "compare_table", "result": {"type": "vm_file", "path": "/home/user/Sales.xlsx"},
                      "expected": {"type": "cloud_file", "path": url(server, gold), "dest": "Sales_gold.xlsx"},
                      "options": {"rules": [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}},
    }


def test_fetch_downloads_the_inputs_and_names_failures(server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server.files["/Sales.xlsx"] = b"workbook"
    config = tmp_path / "task.json"
    config.write_text(json.dumps(_config(server, "/missing-gold.xlsx")))
    out, cache = tmp_path / "tasks", tmp_path / "cache"
    code = main(["import-osworld", str(config), "--out", str(out), "--fetch", "--cache", str(cache)])
    printed = capsys.readouterr().out
    assert code == 1
    assert (out / "inputs" / "Sales.xlsx").read_bytes() == b"workbook"
    assert "download failed: inputs/Sales_gold.xlsx" in printed and "404" in printed
    assert cached_path(cache, url(server, "/Sales.xlsx"), "Sales.xlsx").is_file()
    task = load_task(next(out.glob("*.yaml")))
    assert [i.path for i in missing_inputs(task)] == ["inputs/Sales_gold.xlsx"]
    # run refuses it, listing what is missing (exit 2), before any desktop starts
    assert main(["run", str(next(out.glob("*.yaml"))), "--policy", "desktop-oracle"]) == 2
    assert "inputs/Sales_gold.xlsx" in capsys.readouterr().out
    server.files["/missing-gold.xlsx"] = b"gold"
    assert main(["import-osworld", str(config), "--out", str(out), "--fetch", "--cache", str(cache), "--force"]) == 0
    assert (out / "inputs" / "Sales_gold.xlsx").read_bytes() == b"gold"
    assert missing_inputs(load_task(next(out.glob("*.yaml")))) == []
    assert [p for p, _ in server.requests].count("/Sales.xlsx") == 1  # the second import used what was there
