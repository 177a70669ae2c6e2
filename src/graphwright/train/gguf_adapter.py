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
) -> dict:
    """Write ``tensors`` (PEFT names -> torch tensors) as a llama.cpp LoRA adapter; returns what was written."""
    import gguf
    import numpy as np

    numpy_type = {"f16": np.float16, "f32": np.float32}[dtype]
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = gguf.GGUFWriter(str(out), arch=architecture)
    writer.add_string("general.type", "adapter")
    writer.add_string("general.name", name)
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", alpha)
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


def read_run(run: Path) -> tuple[dict, float]:
    """(tensors by PEFT name, alpha) of a training run's last checkpoint (graphwright.train.adapter)."""
    import torch

    from graphwright.train.adapter import latest_checkpoint

    checkpoint = latest_checkpoint(run)
    if checkpoint is None or not (run / "recipe.json").is_file():
        raise UserError(f"{run} holds no checkpoint of a training run (`graphwright train facts --out {run}`)")
    recipe = json.loads((run / "recipe.json").read_text())
    return torch.load(checkpoint / "adapter.pt", weights_only=True), float(recipe["alpha"])


def convert(source: Path, out: Path, **kw) -> dict:
    """A PEFT adapter folder, or a training run's last checkpoint, -> a llama.cpp adapter file."""
    tensors, alpha = read_peft_adapter(source) if (source / "adapter_config.json").is_file() else read_run(source)
    return write_gguf_adapter(tensors, alpha, out, **kw)


def _layer_order(peft_name: str) -> tuple[int, str]:
    match = _PEFT_NAME.search(peft_name)
    return (int(match[1]), peft_name) if match else (-1, peft_name)
