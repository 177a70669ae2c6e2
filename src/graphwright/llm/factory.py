"""Build a ready-to-use LLM from a short spec string, options and the environment.

Spec forms:

- ``None`` or ``"embedded"``: the default embedded model (qwen2.5-coder-1.5b)
- ``"embedded:<model>"`` or a bare embedded model name: that embedded model
- ``"openai:<model>"``: an OpenAI-compatible server (``base_url``, else OpenAI itself)
- ``"<model>"`` with a base URL: the same as ``"openai:<model>"``

Environment: GRAPHWRIGHT_LLM (spec), GRAPHWRIGHT_BASE_URL or OPENAI_BASE_URL,
GRAPHWRIGHT_API_KEY or OPENAI_API_KEY ("not-needed" when unset: local servers
ignore it); for servers, GRAPHWRIGHT_TIMEOUT (seconds per request, default 120),
GRAPHWRIGHT_RETRIES (retries after the first attempt, default 3) and
GRAPHWRIGHT_RETRY_DELAY (first backoff in seconds, default 1); for the embedded model,
GRAPHWRIGHT_THREADS (default: the cores other work leaves free), GRAPHWRIGHT_SLOTS (requests decoded
together, default 1), GRAPHWRIGHT_SPECULATIVE (``ngram`` or ``draft:<model>``: speculative
decoding, default off) and GRAPHWRIGHT_ADAPTERS (``none``, or ``name=file.gguf`` pairs: LoRA adapters in
place of the shipped ones). Explicit arguments
win over the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphwright.environment import Environment
from graphwright.errors import UserError
from graphwright.llm.adapters import parse_adapters
from graphwright.llm.assemble import DEFAULT_MODEL, MODELS, get_model_spec
from graphwright.llm.base import LLM
from graphwright.llm.embedded import EmbeddedLLM
from graphwright.llm.openai_compat import OpenAICompatLLM
from graphwright.llm.wrappers import CachedLLM, RetryingLLM, TracingLLM


def make_llm(
    spec: str | None = None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    cache: bool = True,
    cache_path: Path | str | None = None,
    trace_path: Path | str | None = None,
    retries: int | None = None,
    retry_delay: float | None = None,
    **backend_opts: Any,
) -> LLM:
    """The backend named by ``spec``, wrapped as ``Tracing(Cached(Retrying(backend)))``.

    ``retries`` is the number of retries after the first attempt (HTTP backends
    only: the embedded model has no transient failures). ``backend_opts`` go to
    the backend: e.g. ``threads``, ``n_ctx``, ``parallel`` for the embedded one,
    ``timeout``, ``http_client``, ``extra_body`` for the HTTP one. Per-document
    metering (``MeteredLLM``) is the caller's job.
    """
    env = Environment.read()
    spec = spec or env.llm or "embedded"
    base_url = base_url or env.base_url
    retries = env.retries if retries is None else retries
    retry_delay = env.retry_delay if retry_delay is None else retry_delay
    backend = _backend(spec, base_url, api_key, backend_opts, env)
    llm: LLM = backend
    if isinstance(backend, OpenAICompatLLM) and retries > 0:
        llm = RetryingLLM(llm, max_attempts=retries + 1, base_delay=retry_delay)
    if cache:
        llm = CachedLLM(llm, cache_path)
    if trace_path is not None:
        llm = TracingLLM(llm, trace_path)
    return llm


def _backend(spec: str, base_url: str | None, api_key: str | None, opts: dict[str, Any], env: Environment) -> LLM:
    kind, _, model = spec.partition(":")
    if spec == "embedded" or kind == "embedded" or (not model and spec in MODELS):
        name = model or (spec if spec in MODELS else DEFAULT_MODEL)
        get_model_spec(name)  # UnknownNameError with the valid names
        return EmbeddedLLM(name, **{**_embedded_env(env), **opts})
    if kind == "openai" and model:
        return _openai(model, base_url, api_key, opts, env)
    if base_url:  # any other name is a model on the given server ("org/model:tag" included)
        return _openai(spec, base_url, api_key, opts, env)
    raise UserError(
        f"cannot tell which LLM {spec!r} means: use 'embedded', 'embedded:<model>' "
        f"(models: {', '.join(sorted(MODELS))}), 'openai:<model>', or give a base URL "
        "(--base-url or GRAPHWRIGHT_BASE_URL) for a model on an OpenAI-compatible server"
    )


def _embedded_env(env: Environment) -> dict[str, Any]:
    """Options of the embedded model set in the environment (explicit arguments win)."""
    opts = {
        "threads": env.threads,
        "parallel": env.slots,
        "speculative": env.speculative,
        "adapters": parse_adapters(env.adapters) if env.adapters else None,
    }
    return {key: value for key, value in opts.items() if value is not None}


def _openai(model: str, base_url: str | None, api_key: str | None, opts: dict[str, Any], env: Environment) -> LLM:
    key = api_key or env.api_key or "not-needed"
    if "timeout" not in opts and env.timeout is not None:
        opts = {**opts, "timeout": env.timeout}
    return OpenAICompatLLM(model, base_url=base_url, api_key=key, **opts)
