"""Exceptions, by who must act.

GraphwrightError                 base of everything raised on purpose
├── UserError                    the user must change something (bad option, missing file, missing package)
│   ├── UnknownNameError         a registry lookup missed; lists the valid names
│   ├── DataNotFoundError        a dataset or KB file is absent; says where it was looked for
│   └── InputDocumentError       a document cannot be read as text (empty, binary, not UTF-8)
├── LLMError                     the model backend failed
│   ├── LLMUnavailableError      server unreachable / embedded runtime missing, after retries
│   ├── LLMResponseError         the backend answered with an error we do not retry
│   └── BudgetExceededError      the per-document token budget is spent
├── ModelOutputError             the model's answer could not be parsed or validated
│                                (its message is written for the model: it is fed back)
└── StoreError                   the graph store failed
"""

from __future__ import annotations


class GraphwrightError(Exception):
    """Base class for graphwright's own errors."""


class UserError(GraphwrightError):
    """Something the user must fix; the message says how."""


class UnknownNameError(UserError, KeyError):
    def __init__(self, kind: str, name: str, valid: list[str]):
        self.kind, self.name, self.valid = kind, name, sorted(valid)
        super().__init__(f"unknown {kind} {name!r}; valid names: {', '.join(self.valid) or '(none)'}")

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class DataNotFoundError(UserError):
    pass


class InputDocumentError(UserError):
    pass


class LLMError(GraphwrightError):
    pass


class LLMUnavailableError(LLMError):
    pass


class LLMResponseError(LLMError):
    pass


class BudgetExceededError(LLMError):
    pass


class ContextOverflowError(LLMResponseError):
    """The request does not fit the model's context window."""


_OVERFLOW_WORDS = (
    "exceeds the available context",
    "maximum context length",
    "context length exceeded",
    "context window",
    "too many tokens",
)


def response_error(message: str) -> LLMResponseError:
    """The right LLMResponseError for a server's message: context overflows get their own type,
    so agent systems can wrap up the run instead of failing the document."""
    lowered = message.lower()
    return ContextOverflowError(message) if any(w in lowered for w in _OVERFLOW_WORDS) else LLMResponseError(message)


class ModelOutputError(GraphwrightError):
    """The model's output is unusable. The message is fed back to the model."""


class StoreError(GraphwrightError):
    pass


class ResultNotStorable(StoreError):
    """A result holding what no graph can (a literal as a subject, an IRI that is not one): that
    document fails with this reason, and the batch goes on."""
