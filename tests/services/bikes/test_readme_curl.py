"""The curl examples of the food, share and bikes docs (docs/services/) answer as documented (GETs 200; the POSTs
are accepted for review)."""

from __future__ import annotations

import json
import re

import pytest
import service_examples

from tests.docs_text import ROOT


def _examples(section: str) -> list[str]:
    body = (ROOT / "docs" / "services" / f"{section}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", body, re.S)
    return [
        c.strip() for block in blocks for c in block.replace("\\\n", " ").splitlines() if c.strip().startswith("curl")
    ]


@pytest.mark.parametrize("section", ["food", "share", "bikes"])
async def test_readme_curl_examples(client, section):
    with service_examples.mocks("share"):
        for command in _examples(section):
            url = re.search(r"'?(localhost:8000[^' ]+)'?", command).group(1).replace("localhost:8000", "")
            if " -X POST" in command:
                body = json.loads(re.search(r"-d '(.*)'", command).group(1))
                r = await client.post(url, json=body)
                assert r.status_code in (200, 409), (command, r.text)  # 409: already submitted by an earlier run
            else:
                r = await client.get(url)
                assert r.status_code == 200, (command, r.text)
