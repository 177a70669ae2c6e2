"""CIExMAS network architecture (paper 000, sections 4.1.5 and 5.4.8), system ``cie.network``."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from graphwright.errors import UserError
from graphwright.systems.base import SYSTEMS
from graphwright.systems.cie.network.config import NetworkConfig
from graphwright.systems.cie.network.system import NetworkSystem


@SYSTEMS.register("cie.network")
def make_network_system(llm, kb, config: dict[str, Any] | None = None) -> NetworkSystem:
    try:
        settings = NetworkConfig.model_validate(config or {})
    except ValidationError as exc:
        fields = ", ".join(sorted(NetworkConfig.model_fields))
        raise UserError(f"invalid cie.network setting: {exc.errors()[0]['msg']} ({exc.errors()[0]['loc'][0]}); "
                        f"valid settings: {fields}") from exc
    return NetworkSystem(llm, kb, settings)


__all__ = ["NetworkConfig", "NetworkSystem", "make_network_system"]
