"""The README's curl examples for glossary, cardgame and opinions answer 200."""

import json
import re
import shlex

import pytest

from tests.docs_text import all_docs

README = all_docs()  # the README and docs/, where the examples now live
COMMANDS = list(re.findall(r"^curl (.+?)(?<!\\)$", README.replace("\\\n", " "), re.MULTILINE))
OURS = [c for c in COMMANDS if re.search(r"localhost:8000/(glossary|cardgame|opinions)/", c)]


def test_there_are_examples():
    assert len(OURS) >= 5


@pytest.mark.parametrize("command", OURS)
async def test_readme_example(client, command):
    args = shlex.split(command)
    url = next(a for a in args if "localhost:8000" in a).split("localhost:8000", 1)[1]
    if "-X" in args and args[args.index("-X") + 1] == "POST":
        body = json.loads(args[args.index("-d") + 1])
        r = await client.post(url, json=body)
    else:  # `-G ... --data-urlencode 'q=...'` for text curl must encode
        params = [args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "--data-urlencode"]
        r = await client.get(url, params=dict(params)) if params else await client.get(url)
    assert r.status_code == 200, (command, r.text[:200])
