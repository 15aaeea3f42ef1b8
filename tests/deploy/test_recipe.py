"""The deploy recipe holds together: the systemd unit raises the descriptor limit the connection
cap follows."""

from __future__ import annotations

import configparser

from assistant.settings import ROOT

DEPLOY = ROOT / "deploy"


def test_the_unit_raises_the_open_file_limit() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "systemd" / "glossary-assistant.service")
    assert int(unit["Service"]["LimitNOFILE"]) >= 65536
