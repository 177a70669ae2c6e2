"""A PEFT adapter written as a llama.cpp adapter file gives in llama.cpp the log-probabilities it gives in
PEFT, chosen per request by the embedded model (real 0.5B model; needs the train extra)."""

from __future__ import annotations

import asyncio

import pytest

from graphwright.errors import UserError
from graphwright.train.gguf_adapter import gguf_tensor_name


def test_peft_names_become_llama_cpp_names():
    assert (
        gguf_tensor_name("base_model.model.model.layers.3.self_attn.q_proj.lora_A.weight")
        == "blk.3.attn_q.weight.lora_a"
    )
    assert (
        gguf_tensor_name("base_model.model.model.layers.27.mlp.down_proj.lora_B.weight")
        == "blk.27.ffn_down.weight.lora_b"
    )
    with pytest.raises(UserError, match="not a LoRA weight"):
        gguf_tensor_name("base_model.model.lm_head.lora_A.weight")


@pytest.mark.slow
def test_llama_cpp_applies_the_converted_adapter_as_peft_does(tmp_path):
    pytest.importorskip("peft", reason="the train extra is not installed: pip install 'graphwright[train]'")
    import gguf
    import torch
    from peft import LoraConfig, get_peft_model

    from graphwright.llm.embedded import EmbeddedLLM
    from graphwright.train.gguf_adapter import convert
    from graphwright.train.grpo import load_policy

    torch.manual_seed(0)
    model, tokenizer = load_policy("qwen2.5-coder-0.5b")
    model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0, target_modules="all-linear"))
    for name, weight in model.named_parameters():
        if "lora_B" in name:  # B starts at zero (no effect): a random one makes the adapter change the answer
            torch.nn.init.normal_(weight, std=0.05)
    model.eval()
    ids = tokenizer("Maren Solberg founded Tidewater Instruments in", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        tuned = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0, -1], -1)
        with model.disable_adapter():
            base = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0, -1], -1)
    model.save_pretrained(str(tmp_path / "peft"), save_embedding_layers=False)
    written = convert(tmp_path / "peft", tmp_path / "test-adapter.gguf")
    assert written["rank"] == 4 and written["tensors"] == 24 * 7 * 2  # 24 layers, 7 linear layers each, A and B

    reader = gguf.GGUFReader(str(tmp_path / "test-adapter.gguf"))
    fields = {name: reader.fields[name] for name in ("general.type", "general.architecture", "adapter.type")}
    assert [bytes(f.parts[f.data[0]]).decode() for f in fields.values()] == ["adapter", "qwen2", "lora"]

    llm = EmbeddedLLM("qwen2.5-coder-0.5b", threads=2, n_ctx=512, adapters={"test": tmp_path / "test-adapter.gguf"})
    try:
        server = llm._ensure_started()

        def top(adapter):
            request = {"prompt": ids, "max_tokens": 1, "n_probs": 5, "temperature": 0, "lora": llm.lora_field(adapter)}
            reply = server.handle_completions(request)
            return {t["id"]: t["logprob"] for t in reply["choices"][0]["logprobs"]["content"][0]["top_logprobs"]}

        with_adapter, without = top("test"), top(None)
        # llama.cpp runs the quantised weights that PEFT ran dequantised: close, not equal
        near = max(abs(lp - tuned[i].item()) for i, lp in with_adapter.items())
        assert near < 0.25
        # and the adapter's effect is far larger than that: it is applied, as PEFT applies it
        assert max(abs(lp - base[i].item()) for i, lp in with_adapter.items()) > 2 * near
        assert max(abs(lp - base[i].item()) for i, lp in without.items()) < 0.25
        assert llm.adapters["test"].startswith("test-adapter.gguf@")
        answer = asyncio.run(llm.chat([{"role": "user", "content": "Say OK."}], adapter="test", max_tokens=4))
        assert answer.usage.completion_tokens >= 1
        with pytest.raises(UserError, match="has no adapter 'facts'"):
            llm.lora_field("facts")
    finally:
        asyncio.run(llm.aclose())
