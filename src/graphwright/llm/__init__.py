"""LLM backends, wrappers, fakes and structured output; see ``base.LLM`` for the interface."""

from graphwright.llm.assemble import DEFAULT_MODEL, MODELS, ModelSpec, ensure_model, get_model_spec
from graphwright.llm.base import LLM, ChatResponse, Message, TransientLLMError
from graphwright.llm.embedded import EmbeddedLLM, LocalServer, start_http_server
from graphwright.llm.factory import make_llm
from graphwright.llm.fake import SchemaLLM, ScriptedLLM, ScriptExhaustedError, minimal_instance
from graphwright.llm.openai_compat import OpenAICompatLLM
from graphwright.llm.structured import StructuredReply, chat_structured, parse_output
from graphwright.llm.wrappers import CachedLLM, MeteredLLM, RetryingLLM, TracingLLM, WrapperLLM

__all__ = [
    "DEFAULT_MODEL",
    "LLM",
    "MODELS",
    "CachedLLM",
    "ChatResponse",
    "EmbeddedLLM",
    "LocalServer",
    "Message",
    "MeteredLLM",
    "ModelSpec",
    "OpenAICompatLLM",
    "RetryingLLM",
    "SchemaLLM",
    "ScriptExhaustedError",
    "ScriptedLLM",
    "StructuredReply",
    "TracingLLM",
    "TransientLLMError",
    "WrapperLLM",
    "chat_structured",
    "ensure_model",
    "get_model_spec",
    "make_llm",
    "minimal_instance",
    "parse_output",
    "start_http_server",
]
