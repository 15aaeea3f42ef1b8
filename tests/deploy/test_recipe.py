"""The deploy recipe holds together: the systemd unit raises the descriptor limit the connection
cap follows, and compose publishes only the proxy, which gets every variable its template
needs and is the only address the API trusts for X-Forwarded-For."""

from __future__ import annotations

import configparser
import ipaddress
import json
import re

import yaml

from assistant.settings import ROOT

DEPLOY = ROOT / "deploy"


def test_the_unit_raises_the_open_file_limit() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "systemd" / "glossary-assistant.service")
    assert int(unit["Service"]["LimitNOFILE"]) >= 65536


def test_compose_puts_the_proxy_in_front() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    published = {name for name, s in services.items() if s.get("ports")}
    assert published == {"proxy"}  # the API, vLLM and PostgreSQL have no host port
    proxy, api = services["proxy"], services["assistant"]
    mounted = proxy["volumes"][0].split(":")[0]
    template = (DEPLOY / mounted).resolve()
    assert template == DEPLOY / "nginx" / "glossary-assistant.conf.template"
    needed = set(re.findall(r"\$\{(\w+)\}", template.read_text()))
    assert needed == set(proxy["environment"])
    assert proxy["environment"]["ASSISTANT_UPSTREAM"] == f"assistant:{api['expose'][0]}"
    subnet = ipaddress.ip_network(compose["networks"]["default"]["ipam"]["config"][0]["subnet"])
    trusted = [
        ipaddress.ip_network(n) for n in json.loads(api["environment"]["ASSISTANT_TRUSTED_PROXIES"])
    ]
    assert trusted == [subnet]
    assert api["ulimits"]["nofile"]["soft"] >= 65536
