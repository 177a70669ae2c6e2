"""`graphwright serve`: the web app and HTTP API over one graph store."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import typer

from graphwright.cli.app import app
from graphwright.cli.common import API_KEY, BASE_URL, NO_CACHE, fail
from graphwright.errors import GraphwrightError, UserError

_TOKEN = re.compile(r"[A-Za-z0-9._~-]{16,}")


def kb_choices(specs: list[str]) -> dict[str, str]:
    """``--kb`` values as {name: spec}: 'default' and 'none' always; a KB folder is named by its folder,
    or NAME=FOLDER."""
    kbs = {"default": "default", "none": "none"}
    for spec in specs:
        name, sep, folder = spec.partition("=")
        if not sep:
            name, folder = Path(spec).name or spec, spec
        kbs[name] = folder
    return kbs


def check_token(token: str | None, host: str) -> str | None:
    from graphwright.web.security import is_loopback

    if token is not None and not _TOKEN.fullmatch(token):
        raise UserError(
            "the API token must be at least 16 characters of A-Z, a-z, 0-9, '.', '_', '~' or '-' "
            f"(for example {secrets.token_urlsafe(24)})"
        )
    if token is None and not is_loopback(host):
        raise UserError(
            f"serving on {host} lets other machines in: set an API token with --token or "
            f"GRAPHWRIGHT_API_TOKEN (for example {secrets.token_urlsafe(24)})"
        )
    return token


@app.command()
def serve(
    store: Path = typer.Option(Path("out/store"), "--store", help="Graph store directory (created if missing)."),
    data: Path = typer.Option(
        Path("out/serve"),
        "--data",
        help="Folder for the job table, uploaded texts, each job's results.jsonl and the LLM trace.",
    ),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on; any other than loopback needs a token."
    ),
    port: int = typer.Option(8000, "--port", min=0, max=65535),
    model: list[str] = typer.Option(
        [],
        "--model",
        "-m",
        help="A model jobs may use (repeatable; the first is "
        "the default): embedded, embedded:qwen2.5-coder-0.5b, or a server's model name.",
    ),
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    kb: list[str] = typer.Option(
        [],
        "--kb",
        help="A KB folder from `kb build` jobs may use, as FOLDER or NAME=FOLDER "
        "(repeatable); 'default' and 'none' are always offered.",
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="GRAPHWRIGHT_API_TOKEN",
        help="API token every request must carry (required off loopback).",
    ),
    max_upload_mb: float = typer.Option(20.0, "--max-upload-mb", min=0.001, help="Largest request body, in MB."),
    max_chars: int = typer.Option(200_000, "--max-chars", help="Longest document accepted, in characters."),
    no_cache: bool = NO_CACHE,
    sparql_timeout: float = typer.Option(
        30.0, "--sparql-timeout", min=0.1, help="Seconds a SPARQL query may run before it is stopped."
    ),
    private_urls: bool | None = typer.Option(
        None,
        "--private-urls/--public-urls-only",
        help="Whether the web addresses a job names may be on local "
        "and private hosts (an intranet, this machine). Default: yes on loopback, public hosts only otherwise.",
    ),
) -> None:
    """Serve the web app and the HTTP API (OpenAPI docs at /docs) over one graph store. Jobs survive a
    restart: an interrupted job resumes where it stopped."""
    try:
        import uvicorn

        from graphwright.web.app import create_app
        from graphwright.web.state import ServeConfig
    except ImportError as exc:
        fail(UserError(f"the web app needs its extra: pip install 'graphwright[web]' ({exc})"))
    try:
        from graphwright.environment import Environment
        from graphwright.locks import folder_lock
        from graphwright.web.security import is_loopback

        env = Environment.read()
        config = ServeConfig(
            store=store,
            data=data,
            models=model or [env.llm or "embedded"],
            base_url=base_url,
            api_key=api_key,
            kbs=kb_choices(kb),
            token=check_token(token, host),
            loopback_only=is_loopback(host),
            max_upload_bytes=int(max_upload_mb * 1024 * 1024),
            max_chars=max_chars,
            cache=not no_cache,
            sparql_seconds=sparql_timeout,
            private_urls=private_urls,
        )
        if any(m != "embedded" and not m.startswith("embedded:") for m in config.models) and not (
            base_url or env.base_url
        ):
            raise UserError("a model other than the embedded ones needs --base-url: the server that serves it")
        from graphwright.store import GraphStore

        GraphStore.open(store).close()  # a store in use elsewhere is reported here, before the server starts
        with folder_lock(data, "--data"):
            typer.echo(f"graphwright serves {store} at http://{host}:{port}/ (API docs at /docs)", err=True)
            uvicorn.run(create_app(config), host=host, port=port, log_level="warning")
    except GraphwrightError as exc:
        fail(exc)
