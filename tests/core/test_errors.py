"""Server error messages map to the error types the agent systems act on."""

from graphwright.errors import ContextOverflowError, LLMResponseError, response_error


def test_context_overflow_messages_get_their_own_error_type():
    embedded = response_error("embedded:qwen: request (4165 tokens) exceeds the available context size (4096 tokens)")
    vllm = response_error("HTTP 400: This model's maximum context length is 8192 tokens. However, you requested 9000")
    assert isinstance(embedded, ContextOverflowError) and isinstance(vllm, ContextOverflowError)
    other = response_error("HTTP 400: invalid schema")
    assert type(other) is LLMResponseError
