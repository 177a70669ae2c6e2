"""An in-process llama.cpp model through xllamacpp; no server process, no network.

``xlc.Server`` loads the model and runs llama.cpp's server loop on its own
threads; ``handle_chat_completions`` takes and returns OpenAI-shaped dicts and
releases the GIL while it waits. Concurrent calls are safe (they queue inside
the server), so the only limit here is a private thread pool with one worker
per slot: waiting calls queue in Python instead of holding threads of the
event loop's default executor, and the LLM works from any event loop.

The server also listens on 127.0.0.1 (it always does); the in-process model
gets a random API key so that listener serves nobody else.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from graphwright.errors import LLMError, LLMResponseError, LLMUnavailableError, UserError, response_error
from graphwright.llm.adapters import identity, shipped_adapters
from graphwright.llm.assemble import DEFAULT_MODEL, ensure_model, get_model_spec
from graphwright.llm.base import LLM, ChatResponse, Message, json_schema_format, response_from_completion
from graphwright.llm.streaming import ChunkCollector, listener, stop_condition


def _import_xllamacpp() -> Any:
    try:
        import xllamacpp
    except ImportError as e:
        raise UserError(
            "the embedded LLM needs xllamacpp: pip install 'graphwright[embedded]' "
            "(or use an OpenAI-compatible server with --llm openai:<model> --base-url ...)"
        ) from e
    return xllamacpp


def free_cores() -> int:
    """CPU threads for llama.cpp: the cores this process may use, less those other work keeps busy now.
    llama.cpp's threads wait for each other, so two runs that each take every core thrash: on 2 cores a
    second run slowed an agentre sentence from about 40 s to 694 s."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, cores - round(busy_cores())))


def busy_cores(window: float = 0.25) -> float:
    """Cores that other processes use over the next ``window`` seconds (Linux /proc/stat, less this
    process's own CPU time: the embedding model's threads spin on for a while after a search);
    elsewhere the 1-minute load average, which lags (a finished install still counts)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return sum(fields), idle

    try:
        total0, idle0 = sample()
        own0, wall0 = time.process_time(), time.perf_counter()
        time.sleep(window)
        total1, idle1 = sample()
        own = (time.process_time() - own0) / (time.perf_counter() - wall0)
    except (OSError, ValueError, IndexError):
        return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    elapsed = total1 - total0
    everyone = (os.cpu_count() or 1) * (elapsed - (idle1 - idle0)) / elapsed if elapsed > 0 else 0.0
    return max(0.0, everyone - own)


def _resolve(model: str, model_path: Path | None, progress: bool) -> tuple[str, Path]:
    """(short model name, GGUF path); a given path wins over the registry."""
    if model_path is not None:
        path = Path(model_path)
        if not path.is_file():
            raise UserError(f"model file not found: {path}")
        return path.stem, path
    return model, ensure_model(get_model_spec(model), progress=progress)


def _server_params(
    path: Path,
    *,
    threads: int,
    n_ctx: int,
    parallel: int,
    quiet: bool,
    prompt_cache_mib: int = 1024,
    host: str = "127.0.0.1",
    port: int = 0,
    api_key: str | None = None,
    alias: str | None = None,
    speculative: str | None = None,
    adapters: dict[str, Path] | None = None,
) -> Any:
    xlc = _import_xllamacpp()
    params = xlc.CommonParams()
    params.model.path = str(path)
    params.n_ctx = n_ctx * parallel  # llama.cpp splits n_ctx over the slots
    params.n_parallel = parallel
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.cache_prompt = True  # reuse the KV cache of a shared prompt prefix
    # KV states of earlier prompts kept in RAM, so agents that take turns each find their own
    # static prefix again (measured: 0.3 s instead of 8 s for a 300-token prefix); llama.cpp's default is 8 GiB
    params.cache_ram_mib = prompt_cache_mib
    params.verbosity = 0 if quiet else 3  # 0 still reports errors; 3 logs every token batch
    params.hostnames = [host]
    params.port = port
    if api_key:
        params.api_keys = [api_key]
    if alias:
        params.model_alias = alias
    if speculative:
        _speculate(params, speculative, threads, progress=not quiet)
    if adapters:  # loaded with scale 0: each request says which one it wants (the request's "lora" field)
        params.lora_adapters = [_adapter_info(path) for path in adapters.values()]
        params.lora_init_without_apply = True
    return params


def _adapter_info(path: Path) -> Any:
    info = _import_xllamacpp().CommonAdapterLoraInfo()
    info.path, info.scale = str(path), 0.0
    return info


SPECULATIVE = ("ngram", "draft:<embedded model>")


def _speculate(params: Any, how: str, threads: int, progress: bool) -> None:
    """Speculative decoding: ``ngram`` drafts from n-grams of the prompt and the answer so far (the
    agents copy terms and IRIs from their prompts); ``draft:<model>`` drafts with a smaller embedded
    model of the same tokenizer (qwen2.5-coder-0.5b for the 1.5B). Greedy answers stay the same."""
    xlc = _import_xllamacpp()
    kinds = xlc.common_speculative_type
    if how == "ngram":
        params.speculative.types = [kinds.COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE]
        return
    kind, _, model = how.partition(":")
    if kind != "draft" or not model:
        raise UserError(f"unknown speculative decoding {how!r}: use one of {', '.join(SPECULATIVE)}")
    params.speculative.types = [kinds.COMMON_SPECULATIVE_TYPE_DRAFT_SIMPLE]
    params.speculative.draft.mparams.path = str(ensure_model(get_model_spec(model), progress=progress))
    params.speculative.draft.n_max = 8
    params.speculative.draft.cpuparams.n_threads = threads
    params.speculative.draft.cpuparams_batch.n_threads = threads


def _start(params: Any, path: Path) -> Any:
    xlc = _import_xllamacpp()
    try:
        return xlc.Server(params)
    except RuntimeError as e:  # xllamacpp says only "Failed to init server"
        raise LLMUnavailableError(
            f"llama.cpp could not load {path}: {e}. Check that the file is a GGUF model, "
            "that there is enough memory, and rerun with quiet=False for llama.cpp's log."
        ) from e


class EmbeddedLLM(LLM):
    """A GGUF model run in this process; started on the first call.

    ``threads``: CPU threads for prompt and generation; default: the idle cores
    when the model loads (``free_cores``): llama.cpp's threads wait on each
    other, so on a busy 2-core machine 1 thread measured 3-8x faster than 2. ``n_ctx``: context tokens per
    request. ``parallel``: requests decoded together (each gets ``n_ctx``);
    more than 1 only pays with spare cores. ``prompt_cache_mib``: RAM for
    earlier prompts' KV state (prefix reuse across agents). ``speculative``:
    ``ngram`` or ``draft:<model>`` (see ``_speculate``; default: none). ``adapters``: LoRA adapter files by
    name, loaded beside the model and applied to the requests that name one (default: the ones shipped for
    this model, ``graphwright.llm.adapters``; ``{}``: none).
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        model_path: Path | str | None = None,
        threads: int | None = None,
        n_ctx: int = 4096,
        parallel: int = 1,
        prompt_cache_mib: int = 1024,
        quiet: bool = True,
        progress: bool = True,
        speculative: str | None = None,
        adapters: dict[str, Path] | None = None,
    ):
        if model_path is None:
            get_model_spec(model)  # fail on a bad name now, not on the first call
        self.model = Path(model_path).stem if model_path else model
        self.name = f"embedded:{self.model}"
        self._model_path = Path(model_path) if model_path else None
        self._threads, self._n_ctx, self._parallel = threads, n_ctx, parallel  # threads: None = free_cores() at start
        self._prompt_cache_mib = prompt_cache_mib
        self._speculative = speculative
        self._adapter_files = adapters  # None: the shipped ones, looked up at the first use
        self._quiet, self._progress = quiet, progress
        self._server: Any = None
        self._closed = False
        self._start_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="graphwright-llm")
        self.load_seconds: float | None = None  # model load time, once started

    def describe(self) -> str:
        return f"{self.name} (in-process llama.cpp)"

    @property
    def adapters(self) -> dict[str, str]:
        return {name: identity(path) for name, path in self._adapter_paths().items()}

    def lora_field(self, adapter: str | None) -> list[dict[str, Any]]:
        """The request's ``lora`` field: every loaded adapter by its index, the one asked for at full scale."""
        names = list(self._adapter_paths())
        if adapter is not None and adapter not in names:
            raise UserError(f"{self.name} has no adapter {adapter!r} (it has: {', '.join(names) or 'none'})")
        return [{"id": i, "scale": 1.0 if name == adapter else 0.0} for i, name in enumerate(names)]

    def _adapter_paths(self) -> dict[str, Path]:
        if self._adapter_files is None:
            self._adapter_files = shipped_adapters(self.model) if self._model_path is None else {}
        return self._adapter_files

    async def start(self) -> None:
        """Load the model now instead of on the first call."""
        await self._run(self._ensure_started)

    async def chat(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        adapter: str | None = None,
    ) -> ChatResponse:
        request: dict[str, Any] = {"messages": messages, "temperature": temperature, "cache_prompt": True}
        if self._adapter_paths():
            request["lora"] = self.lora_field(adapter)
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if json_schema is not None:
            request["response_format"] = json_schema_format(json_schema)
        started = time.perf_counter()
        on_text, stop_when = listener(), stop_condition()
        if on_text is not None or stop_when is not None:  # the text so far, as it comes, to whoever asked
            loop = asyncio.get_running_loop()
            show = (lambda text: loop.call_soon_threadsafe(on_text, text)) if on_text is not None else None
            collector = ChunkCollector(show, stop_when)  # returning True from its callback ends the answer
            request |= {"stream": True, "stream_options": {"include_usage": True}, "timings_per_token": True}
            await self._run(self._complete, request, collector.add)
            return collector.response(self.name, time.perf_counter() - started)
        reply = await self._run(self._complete, request)
        return _to_response(reply, self.name, time.perf_counter() - started)

    async def aclose(self) -> None:
        # dropping the last reference runs the C++ destructor, which stops the loop and the listener;
        # a call still running holds its own reference and finishes first
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._server = None

    async def _run(self, fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        except RuntimeError as e:
            if "shutdown" in str(e):  # pool closed: aclose() was called
                raise LLMUnavailableError(f"{self.name} is closed") from e
            raise

    def _ensure_started(self) -> Any:
        with self._start_lock:
            if self._closed:
                raise LLMUnavailableError(f"{self.name} is closed")
            if self._server is None:
                name, path = _resolve(self.model, self._model_path, self._progress)
                params = _server_params(
                    path,
                    threads=self._threads or free_cores(),
                    n_ctx=self._n_ctx,
                    parallel=self._parallel,
                    quiet=self._quiet,
                    prompt_cache_mib=self._prompt_cache_mib,
                    api_key=secrets.token_urlsafe(24),
                    alias=name,
                    speculative=self._speculative,
                    adapters=self._adapter_paths(),
                )
                started = time.perf_counter()
                self._server = _start(params, path)
                self.load_seconds = time.perf_counter() - started
            return self._server

    def _complete(self, request: dict[str, Any], on_chunk: Any = None) -> dict[str, Any]:
        server = self._ensure_started()
        try:
            if on_chunk is not None:  # streamed: each chunk to the callback, nothing returned
                return server.handle_chat_completions(request, on_chunk)
            return server.handle_chat_completions(request)
        except ValueError as e:  # xllamacpp's way of rejecting a request (bad schema, bad messages)
            raise LLMResponseError(f"{self.name} rejected the request: {e}") from e
        except RuntimeError as e:
            raise LLMError(f"{self.name} failed: {e}") from e


def _to_response(reply: dict[str, Any], name: str, seconds: float) -> ChatResponse:
    if "error" in reply:  # e.g. the prompt does not fit in n_ctx
        error = reply["error"]
        message = error.get("message", error) if isinstance(error, dict) else error
        raise response_error(f"{name}: {message}")
    return response_from_completion(reply, name, seconds)


class LocalServer:
    """xllamacpp's OpenAI-compatible HTTP server, in this process, until closed."""

    def __init__(self, server: Any, model: str):
        self._server = server
        self.model = model
        self.url: str = server.listening_address  # e.g. http://127.0.0.1:41234
        self.base_url = self.url + "/v1"  # what OpenAI clients want

    def close(self) -> None:
        self._server = None  # the destructor closes the listener

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_http_server(
    model: str = DEFAULT_MODEL,
    *,
    model_path: Path | str | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    threads: int = 2,
    n_ctx: int = 4096,
    parallel: int = 1,
    prompt_cache_mib: int = 1024,
    api_key: str | None = None,
    quiet: bool = True,
    progress: bool = True,
) -> LocalServer:
    """Serve an embedded model over HTTP (port 0 picks a free port); blocks while it loads.

    Requests may name any model; the server answers with the one it has.
    """
    name, path = _resolve(model, Path(model_path) if model_path else None, progress)
    params = _server_params(
        path, threads=threads, n_ctx=n_ctx, parallel=parallel, quiet=quiet, prompt_cache_mib=prompt_cache_mib,
        host=host, port=port, api_key=api_key, alias=name,
    )  # fmt: skip
    return LocalServer(_start(params, path), name)
