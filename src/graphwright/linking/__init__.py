"""Open-world entity linking: link what the KB supports, mint the rest, type the values."""

from graphwright.linking.judge import JudgeModel, LinkDecision, LinkEvidence, LinkJudge
from graphwright.linking.literals import typed_value
from graphwright.linking.names import match_name, normalize
from graphwright.linking.resolve import Resolver, resolve
from graphwright.linking.system import LINKING_MODES, OpenWorldLinking, with_linking

__all__ = [
    "JudgeModel",
    "LINKING_MODES",
    "LinkDecision",
    "LinkEvidence",
    "LinkJudge",
    "OpenWorldLinking",
    "Resolver",
    "match_name",
    "normalize",
    "resolve",
    "typed_value",
    "with_linking",
]
