"""A small stand-in for the Hugging Face hub on 127.0.0.1, for the push and import tests.

The hub cannot be reached here, so ``huggingface_hub`` is pointed at this server
(``HF_ENDPOINT`` / ``endpoint=``); everything up to the network call is the real library.
It implements just the HTTP API those calls use -- create repo, settings, validate YAML,
preupload, the LFS batch API with basic PUT transfers, commit, tree, repo info and file
resolve -- keeps the repo's files, and records every request so tests can check what was
sent (and what was not: the token in anything but the Authorization header).
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import unquote, urlparse

import yaml


def git_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class RepoFile:
    data: bytes
    lfs: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def oid(self) -> str:
        """What preupload reports: sha256 for LFS files, the git blob sha1 for regular ones."""
        return self.sha256 if self.lfs else git_sha1(self.data)


@dataclass
class Repo:
    private: bool
    files: dict[str, RepoFile] = field(default_factory=dict)
    commits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sha(self) -> str:
        return hashlib.sha1(json.dumps([c["oid"] for c in self.commits]).encode()).hexdigest()


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes


class FakeHub:
    """The server's state and knobs. ``url`` is its endpoint."""

    def __init__(self, token: str):
        self.token = token
        self.repos: dict[str, Repo] = {}
        self.lfs: dict[str, bytes] = {}
        self.requests: list[Request] = []
        self.lfs_puts: list[str] = []  # oids uploaded, in order
        self.commit_count = 0
        self.fail_commits: set[int] = set()  # 1-based commit attempts answered with 500
        self.echo_token_on_create = False  # a careless server that repeats the Authorization header
        self.lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _body(self) -> bytes:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    chunks = []
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        chunks.append(self.rfile.read(size))
                        self.rfile.readline()
                    return b"".join(chunks)
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def _handle(self) -> None:
                body = self._body() if self.command in ("POST", "PUT") else b""
                request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with hub.lock:
                    hub.requests.append(request)
                    status, headers, payload = hub.route(request)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                headers.setdefault("Content-Type", "application/json")
                headers.setdefault("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_HEAD = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- routing ----------------------------------------------------------------------
    def authorized(self, request: Request) -> bool:
        return request.headers.get("authorization") == f"Bearer {self.token}"

    def route(self, request: Request) -> tuple[int, dict[str, str], Any]:
        parsed = urlparse(request.path)
        parts = [unquote(p) for p in parsed.path.strip("/").split("/")]
        method = request.method
        if parts[:3] == ["api", "repos", "create"] and method == "POST":
            return self.create(request)
        if parts[:2] == ["api", "validate-yaml"]:
            return self.validate_yaml(request)
        if parts[:2] == ["api", "datasets"] and len(parts) >= 4:
            repo_id = "/".join(parts[2:4])
            rest = parts[4:]
            repo = self.repos.get(repo_id)
            if repo is None:
                return 404, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
            if repo.private and not self.authorized(request):
                return 401, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
            if rest[:1] == ["settings"] and method == "PUT":
                return self.settings(request, repo)
            if rest[:1] == ["preupload"]:
                return self.preupload(request, repo)
            if rest[:1] == ["commit"]:
                return self.commit(request, repo, repo_id)
            if rest[:1] == ["tree"]:
                return self.tree(repo)
            if rest[:1] == ["revision"] or not rest:
                return self.info(repo, repo_id)
        if parts[:1] == ["datasets"] and len(parts) >= 3 and parts[2].endswith(".git"):
            return self.lfs_batch(request)
        if parts[:1] == ["_lfs"] and method == "PUT":
            return self.lfs_put(request, parts[1])
        if parts[:1] == ["datasets"] and len(parts) >= 6 and parts[3] == "resolve":
            return self.resolve(request, "/".join(parts[1:3]), "/".join(parts[5:]))
        return 404, {}, {"error": f"no route for {method} {parsed.path}"}

    def create(self, request: Request) -> tuple[int, dict[str, str], Any]:
        if self.echo_token_on_create:
            return 403, {}, {"error": f"You cannot create repos with {request.headers.get('authorization')}"}
        if not self.authorized(request):
            return 401, {}, {"error": "Invalid credentials in Authorization header"}
        body = json.loads(request.body)
        repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else f"user/{body['name']}"
        url = f"{self.url}/datasets/{repo_id}"
        if repo_id in self.repos:
            return 409, {}, {"error": "You already created this dataset repo", "url": url}
        self.repos[repo_id] = Repo(private=body.get("visibility") == "private" or bool(body.get("private")))
        return 200, {}, {"url": url, "name": repo_id}

    def settings(self, request: Request, repo: Repo) -> tuple[int, dict[str, str], Any]:
        if not self.authorized(request):
            return 401, {}, {"error": "unauthorized"}
        body = json.loads(request.body)
        if "private" in body:
            repo.private = bool(body["private"])
        return 200, {}, {}

    def validate_yaml(self, request: Request) -> tuple[int, dict[str, str], Any]:
        content = json.loads(request.body)["content"]
        try:
            header = content.split("---\n")[1]
            data = yaml.safe_load(header)
            assert isinstance(data, dict) and "configs" in data and "dataset_info" in data
        except Exception as exc:  # noqa: BLE001 -- any unreadable card is a 400
            return 400, {}, {"errors": [{"message": f"bad card metadata: {exc!r}"}]}
        return 200, {}, {"errors": [], "warnings": []}

    def preupload(self, request: Request, repo: Repo) -> tuple[int, dict[str, str], Any]:
        if not self.authorized(request):
            return 401, {}, {"error": "unauthorized"}
        files = []
        for item in json.loads(request.body)["files"]:
            lfs = item["path"].endswith(".parquet") or item["size"] > 10 * 1024 * 1024
            entry = {"path": item["path"], "uploadMode": "lfs" if lfs else "regular", "shouldIgnore": False}
            existing = repo.files.get(item["path"])
            if existing is not None:
                entry["oid"] = existing.oid
            files.append(entry)
        return 200, {}, {"files": files, "commitOid": repo.sha}

    def lfs_batch(self, request: Request) -> tuple[int, dict[str, str], Any]:
        if not self.authorized(request):
            return 401, {}, {"message": "unauthorized"}
        objects = []
        for obj in json.loads(request.body)["objects"]:
            answer: dict[str, Any] = {"oid": obj["oid"], "size": obj["size"]}
            if obj["oid"] not in self.lfs:  # already stored: no actions, the client skips it
                answer["actions"] = {"upload": {"href": f"{self.url}/_lfs/{obj['oid']}"}}
            objects.append(answer)
        return 200, {"Content-Type": "application/vnd.git-lfs+json"}, {"transfer": "basic", "objects": objects}

    def lfs_put(self, request: Request, oid: str) -> tuple[int, dict[str, str], Any]:
        if hashlib.sha256(request.body).hexdigest() != oid:
            return 400, {}, {"error": "sha256 mismatch"}
        self.lfs[oid] = request.body
        self.lfs_puts.append(oid)
        return 200, {"ETag": f'"{oid}"'}, b""

    def commit(self, request: Request, repo: Repo, repo_id: str) -> tuple[int, dict[str, str], Any]:
        if not self.authorized(request):
            return 401, {}, {"error": "unauthorized"}
        self.commit_count += 1
        if self.commit_count in self.fail_commits:
            return 500, {}, {"error": "Internal Error - We're working hard to fix this as soon as possible!"}
        lines = [json.loads(line) for line in request.body.decode().splitlines() if line.strip()]
        header = lines[0]["value"]
        changes: dict[str, RepoFile | None] = {}
        for line in lines[1:]:
            value = line["value"]
            if line["key"] == "file":
                changes[value["path"]] = RepoFile(base64.b64decode(value["content"]), lfs=False)
            elif line["key"] == "lfsFile":
                if value["oid"] not in self.lfs:
                    return 422, {}, {"error": f"LFS object {value['oid']} of {value['path']} was never uploaded"}
                changes[value["path"]] = RepoFile(self.lfs[value["oid"]], lfs=True)
            elif line["key"] in ("deletedFile", "deletedFolder"):
                changes[value["path"]] = None
        for path, content in changes.items():
            if content is None:
                repo.files.pop(path, None)
            else:
                repo.files[path] = content
        repo.commits.append({"summary": header["summary"], "paths": sorted(changes), "oid": f"{len(repo.commits) + 1:040x}"})
        oid = repo.commits[-1]["oid"]
        return 200, {}, {"commitUrl": f"{self.url}/datasets/{repo_id}/commit/{oid}", "commitOid": oid, "pullRequestUrl": None}

    def tree(self, repo: Repo) -> tuple[int, dict[str, str], Any]:
        entries = []
        for path, file in sorted(repo.files.items()):
            entry: dict[str, Any] = {"type": "file", "path": path, "size": len(file.data), "oid": git_sha1(file.data)}
            if file.lfs:
                entry["lfs"] = {"oid": file.sha256, "size": len(file.data), "pointerSize": 134}
            entries.append(entry)
        return 200, {}, entries

    def info(self, repo: Repo, repo_id: str) -> tuple[int, dict[str, str], Any]:
        return 200, {}, {
            "id": repo_id,
            "sha": repo.sha,
            "private": repo.private,
            "siblings": [{"rfilename": path} for path in sorted(repo.files)],
        }

    def resolve(self, request: Request, repo_id: str, path: str) -> tuple[int, dict[str, str], Any]:
        repo = self.repos.get(repo_id)
        if repo is None or (repo.private and not self.authorized(request)):
            return 404, {"X-Error-Code": "RepoNotFound"}, {"error": "Repository not found"}
        file = repo.files.get(path)
        if file is None:
            return 404, {"X-Error-Code": "EntryNotFound"}, {"error": "Entry not found"}
        headers = {
            "X-Repo-Commit": repo.sha,
            "ETag": f'"{file.sha256 if file.lfs else git_sha1(file.data)}"',
            "Content-Type": "application/octet-stream",
            "Content-Length": str(len(file.data)),
        }
        return 200, headers, file.data
