"""The robots.txt decision's per-agent index (Parsed.groups_for) gives the groups the scan over
every group's agents gave: the groups naming the agent in any case, each once, in file order."""

from twlookup.services.seo.logic import robots

TEXT = """User-agent: GPTBot
User-agent: gptbot
Disallow: /a

User-agent: *
Disallow: /b

User-agent: Other
User-agent: GPTBot
Allow: /a/c
Disallow: /
"""


def _scan(parsed: robots.Parsed, agent: str) -> list[robots.Group]:
    return [g for g in parsed.groups if any(a.lower() == agent for a in g.agents)]


def test_groups_for_gives_the_groups_the_scan_gives():
    parsed = robots.parse(TEXT)
    for agent in ("gptbot", "other", "nobody", "*"):
        assert parsed.groups_for(agent) == _scan(parsed, agent), agent
    assert [g.lines[0] for g in parsed.groups_for("gptbot")] == [1, 8]


def test_a_crawler_named_in_two_groups_gets_them_merged():
    d = robots.decide(robots.parse(TEXT), "GPTBot", "/a/c")
    assert d.allowed and d.group_kind == "specific" and d.rule is not None and d.rule.pattern == "/a/c"
    assert not robots.decide(robots.parse(TEXT), "GPTBot", "/z").allowed
    assert robots.decide(robots.parse(TEXT), "SomeBot", "/z").allowed  # the '*' group disallows /b only
