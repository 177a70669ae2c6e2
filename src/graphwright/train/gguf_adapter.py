"""A PEFT LoRA adapter as a llama.cpp adapter file (GGUF), written with the ``gguf`` package's writer.

llama.cpp reads ``general.type=adapter``, ``general.architecture`` (it must be the base model's),
``adapter.type=lora`` and ``adapter.lora.alpha``, and one pair of tensors per adapted weight, named after the
base model's tensor with ``.lora_a``/``.lora_b``. It checks that A's first dimension (in ggml's order, the
reverse of numpy's) is the weight's input size and B's second its output size, so PEFT's ``lora_A`` ([rank,
in]) and ``lora_B`` ([out, rank]) go in as they are. It scales by alpha / rank, as PEFT does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphwright.errors import UserError

#: PEFT's Qwen2 module names -> llama.cpp's tensor names
MODULES = {
    "q_proj": "attn_q",
    "k_proj": "attn_k",
    "v_proj": "attn_v",
    "o_proj": "attn_output",
    "gate_proj": "ffn_gate",
    "up_proj": "ffn_up",
    "down_proj": "ffn_down",
}
_PEFT_NAME = re.compile(r"layers\.(\d+)\.(?:self_attn|mlp)\.(\w+)\.lora_([AB])(?:\.default)?\.weight$")


def gguf_tensor_name(peft_name: str) -> str:
    """``base_model.model.model.layers.3.self_attn.q_proj.lora_A.weight`` -> ``blk.3.attn_q.weight.lora_a``."""
    match = _PEFT_NAME.search(peft_name)
    if not match or match[2] not in MODULES:
        raise UserError(f"{peft_name}: not a LoRA weight of a Qwen2 layer this converter knows")
    layer, module, side = match.groups()
    return f"blk.{layer}.{MODULES[module]}.weight.lora_{side.lower()}"


_GGUF_NAME = re.compile(r"^blk\.(\d+)\.(\w+)\.weight\.lora_([ab])$")
_PEFT_MODULES = {tensor: module for module, tensor in MODULES.items()}
_BLOCKS = {"q_proj": "self_attn", "k_proj": "self_attn", "v_proj": "self_attn", "o_proj": "self_attn"}
#: where the run that wrote an adapter file stood (graphwright.train.adapter's position and recipe, as JSON)
TRAINING_KEY = "graphwright.training"


def peft_tensor_name(gguf_name: str) -> str:
    """``blk.3.attn_q.weight.lora_a`` -> ``base_model.model.model.layers.3.self_attn.q_proj.lora_A.weight``."""
    match = _GGUF_NAME.match(gguf_name)
    if not match or match[2] not in _PEFT_MODULES:
        raise UserError(f"{gguf_name}: not a LoRA tensor of a Qwen2 layer this converter knows")
    layer, tensor, side = match.groups()
    module = _PEFT_MODULES[tensor]
    return f"base_model.model.model.layers.{layer}.{_BLOCKS.get(module, 'mlp')}.{module}.lora_{side.upper()}.weight"


def read_gguf_adapter(path: Path) -> tuple[dict, float, dict | None]:
    """(tensors by PEFT name as float32, alpha, the training position it was written at or None) of a
    llama.cpp adapter file: what a run needs to go on training it on another machine."""
    import gguf
    import numpy as np
    import torch

    if not path.is_file():
        raise UserError(f"adapter file {path} not found")
    reader = gguf.GGUFReader(str(path))

    def field(name: str):
        found = reader.fields.get(name)
        return None if found is None else found.contents()

    if field("general.type") != "adapter" or field("adapter.type") != "lora":
        raise UserError(f"{path} is not a llama.cpp LoRA adapter file")
    tensors = {peft_tensor_name(t.name): torch.from_numpy(np.array(t.data, dtype=np.float32)) for t in reader.tensors}
    training = field(TRAINING_KEY)
    return tensors, float(field("adapter.lora.alpha")), json.loads(training) if training else None


def read_peft_adapter(folder: Path) -> tuple[dict, float]:
    """(tensors by PEFT name, alpha) of a folder PEFT's ``save_pretrained`` wrote."""
    from safetensors.torch import load_file

    config_path, weights = folder / "adapter_config.json", folder / "adapter_model.safetensors"
    if not config_path.is_file() or not weights.is_file():
        raise UserError(f"{folder} is not a PEFT adapter folder (adapter_config.json and adapter_model.safetensors)")
    config = json.loads(config_path.read_text())
    if config.get("rank_pattern") or config.get("alpha_pattern"):
        raise UserError(f"{folder}: per-module ranks or alphas are not supported by llama.cpp's adapter format")
    return load_file(str(weights)), float(config["lora_alpha"])


def write_gguf_adapter(
    tensors: dict,
    alpha: float,
    out: Path,
    *,
    architecture: str = "qwen2",
    name: str = "graphwright facts adapter",
    dtype: str = "f16",
    training: dict | None = None,
) -> dict:
    """Write ``tensors`` (PEFT names -> torch tensors) as a llama.cpp LoRA adapter; returns what was written.
    ``training`` (a run's position and recipe) goes in as metadata, so a run can go on from the file."""
    import gguf
    import numpy as np

    numpy_type = {"f16": np.float16, "f32": np.float32}[dtype]
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = gguf.GGUFWriter(str(out), arch=architecture)
    writer.add_string("general.type", "adapter")
    writer.add_string("general.name", name)
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", alpha)
    if training is not None:
        writer.add_string(TRAINING_KEY, json.dumps(training, sort_keys=True))
    ranks = set()
    for peft_name in sorted(tensors, key=_layer_order):
        array = tensors[peft_name].detach().float().cpu().numpy().astype(numpy_type)
        ranks.add(array.shape[0] if ".lora_A" in peft_name else array.shape[1])
        writer.add_tensor(gguf_tensor_name(peft_name), array)
    if len(ranks) != 1:
        raise UserError(f"the adapter's weights have several ranks ({sorted(ranks)})")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return {"tensors": len(tensors), "rank": ranks.pop(), "alpha": alpha, "bytes": out.stat().st_size}


def read_run(run: Path) -> tuple[dict, float, dict]:
    """(tensors by PEFT name, alpha, position and recipe) of a training run's last checkpoint
    (graphwright.train.adapter)."""
    import torch

    from graphwright.train.checkpoints import latest_checkpoint

    checkpoint = latest_checkpoint(run)
    if checkpoint is None or not (run / "recipe.json").is_file():
        raise UserError(f"{run} holds no checkpoint of a training run (`graphwright train facts --out {run}`)")
    recipe = json.loads((run / "recipe.json").read_text())
    training = {"position": json.loads((checkpoint / "position.json").read_text()), "recipe": recipe}
    return torch.load(checkpoint / "adapter.pt", weights_only=True), float(recipe["alpha"]), training


def convert(source: Path, out: Path, **kw) -> dict:
    """A PEFT adapter folder, or a training run's last checkpoint (with where the run stood), -> a llama.cpp
    adapter file."""
    if (source / "adapter_config.json").is_file():
        return write_gguf_adapter(*read_peft_adapter(source), out, **kw)
    tensors, alpha, training = read_run(source)
    return write_gguf_adapter(tensors, alpha, out, training=training, **kw)


def _layer_order(peft_name: str) -> tuple[int, str]:
    match = _PEFT_NAME.search(peft_name)
    return (int(match[1]), peft_name) if match else (-1, peft_name)
