"""The curl examples of the release-tracker doc (sports, movie, games) answer as it says."""

import re
import shlex
from urllib.parse import urlsplit

from tests.docs_text import ROOT


def _examples() -> list[tuple[str, dict[str, str]]]:
    """(URL, the --data-urlencode parameters) of each curl line of the section."""
    section = (ROOT / "docs" / "services" / "release-trackers.md").read_text(encoding="utf-8")
    out = []
    for line in section.splitlines():
        if line.startswith("curl "):
            args = shlex.split(line.split("#")[0])
            url = next(a for a in args if a.startswith("localhost:"))
            encoded = dict(args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "--data-urlencode")
            out.append((url, encoded))
    return out


async def test_readme_curl_examples(client):
    examples = _examples()
    assert len(examples) == 5
    for url, encoded in examples:
        parts = urlsplit("http://" + url)
        params = parts.query or encoded  # query as written in the README
        r = await client.get(parts.path, params=params)
        if "/api/lookup" in parts.path:
            assert r.status_code == 503 and r.headers["retry-after"]  # no network in tests, as the README says
        else:
            assert r.status_code == 200, (url, r.text)
            assert re.search(r'"as_of":"\d{4}-\d{2}-\d{2}"', r.text)
