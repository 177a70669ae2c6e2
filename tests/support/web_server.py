"""The web app's tests share this: a scripted model (relation triples for extraction, a cited answer
for questions) and ``graphwright serve`` in a child process that can really be killed."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.agentre_script import write_inputs

SENTENCE = "John Smith , a spokesman for Acme Corp , lives in Oslo ."
EVIL = "<b>Eve</b><script>window.pwned=1</script>"


def reply(delay: float = 0.0):
    """Work_For and Live_In for the sentence (and the hostile name when the text holds it); for a question,
    "Oslo" where it asks where someone lives, "2009" where it asks "When was" (which no
    source says), else "Acme Corp", citing the first passage, else the first numbered source; with notes
    when the prompt asks for them."""

    def answer(messages, response_format) -> str:
        time.sleep(delay)
        system, user = messages[0]["content"], messages[-1]["content"]
        if system.startswith("You answer a question"):
            cited = (re.findall(r"\[(P\d+)\]", user) or re.findall(r"\[(\w+)\]", user))[:1]  # a passage if any
            notes = {"notes": "John Smith: works for Acme Corp"} if '"notes"' in system else {}
            question = user.rpartition("Question:")[2]
            said = "Oslo" if "live" in question else "2009" if "When was" in question else "Acme Corp"
            return json.dumps({**notes, "answer": said, "citations": cited})
        triples = [
            {"head": "John Smith", "relation": "Work_For", "tail": "Acme Corp"},
            {"head": "John Smith", "relation": "Live_In", "tail": "Oslo"},
        ]
        if EVIL in user:
            triples.append({"head": EVIL, "relation": "Live_In", "tail": "Oslo"})
        return json.dumps({"triples": triples})

    return answer


def job_settings(folder: Path) -> dict:
    """agentre.zeroshot with a small user schema and no KB: extraction needs nothing but the scripted model."""
    schema, pool = write_inputs(folder)
    return {"schema_file": str(schema), "pool_file": str(pool)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServeProcess:
    """``graphwright serve`` on 127.0.0.1 with the scripted model at ``model_url``."""

    def __init__(self, where: Path, model_url: str, *extra: str, model: str = "scripted") -> None:
        self.where, self.model_url, self.extra, self.model = where, model_url, extra, model
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.child: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> ServeProcess:
        args = [
            sys.executable,
            "-m",
            "graphwright.cli",
            "serve",
            "--store",
            str(self.where / "store"),
            "--data",
            str(self.where / "serve"),
            "--port",
            str(self.port),
            "--model",
            self.model,
            "--base-url",
            self.model_url,
            "--no-cache",
            *self.extra,
        ]
        log = self.where / f"serve-{self.port}.log"  # a file, not a pipe: nothing to drain or leak
        with log.open("ab") as err:
            self.child = subprocess.Popen(
                args, env={**os.environ, "GRAPHWRIGHT_RETRIES": "0"}, stdout=subprocess.DEVNULL, stderr=err
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.child.poll() is not None:
                raise AssertionError(f"serve exited: {log.read_text(errors='replace')[-2000:]}")
            try:
                httpx.get(self.url + "/api/info", timeout=1.0).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("serve did not answer in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a power cut."""
        if self.child and self.child.poll() is None:
            self.child.send_signal(signal.SIGKILL)
            self.child.wait()

    def stop(self) -> None:
        if self.child and self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_for_job(get, job_id: str, timeout: float = 60.0, until=lambda job: job["state"] in ("done", "failed")) -> dict:
    """Poll ``get(path)`` (a client's JSON getter) until the job passes ``until``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = get(f"/api/jobs/{job_id}")
        if until(job):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not get there in time: {job}")
