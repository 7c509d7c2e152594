"""The robots matcher against the cases of Google's robots_test.cc (google/robotstxt @ 22b355ff,
Apache-2.0), transcribed. Cases where this matcher answers differently on purpose are marked
`differs` and listed in robots.DIFFERENCES_FROM_GOOGLE."""

from __future__ import annotations

import pytest

from twlookup.services.seo.logic.robots import DIFFERENCES_FROM_GOOGLE, decide, parse

FOO = "user-agent: FooBot\ndisallow: /\n"
GROUPS = (
    "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\n"
    "allow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
)
UPPER = "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"
CAMEL = "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n"
UA_UPPER = "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"
UA_LOWER = "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"
UA_CAMEL = "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n"
GLOBAL = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
ONLY_SPECIFIC = "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n"
PAGE = "http://foo.bar/x/page.html"
FISH = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
FISH_STAR = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
FISH_SLASH = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
PHP = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
PHP_END = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
FISH_PHP = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
INDEX = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"

CASES = [
    # GoogleOnly_SystemTest
    ("", "FooBot", "", True),
    (FOO, "", "", True),
    (FOO, "FooBot", "", False),
    ("", "", "", True),
    # ID_LineSyntax_Line
    (FOO, "FooBot", "http://foo.bar/x/y", False),
    ("foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y", True),
    ("user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y", False),
    # ID_LineSyntax_Groups
    (GROUPS, "FooBot", "http://foo.bar/x/b", True),
    (GROUPS, "FooBot", "http://foo.bar/z/d", True),
    (GROUPS, "FooBot", "http://foo.bar/y/c", False),
    (GROUPS, "BarBot", "http://foo.bar/y/c", True),
    (GROUPS, "BarBot", "http://foo.bar/w/a", True),
    (GROUPS, "BarBot", "http://foo.bar/z/d", False),
    (GROUPS, "BazBot", "http://foo.bar/z/d", True),
    (GROUPS, "FooBot", "http://foo.bar/foo/bar/", False),
    (GROUPS, "BarBot", "http://foo.bar/foo/bar/", False),
    (GROUPS, "BazBot", "http://foo.bar/foo/bar/", False),
    # ID_LineSyntax_Groups_OtherRules
    (
        "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
        "FooBot",
        "http://foo.bar/",
        False,
    ),
    (
        "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
        "BarBot",
        "http://foo.bar/",
        False,
    ),
    (
        "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
        "FooBot",
        "http://foo.bar/",
        False,
    ),
    (
        "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
        "BarBot",
        "http://foo.bar/",
        False,
    ),
    # ID_REPLineNamesCaseInsensitive
    (UPPER, "FooBot", "http://foo.bar/x/y", True),
    (CAMEL, "FooBot", "http://foo.bar/x/y", True),
    (UPPER, "FooBot", "http://foo.bar/a/b", False),
    (CAMEL, "FooBot", "http://foo.bar/a/b", False),
    # ID_UserAgentValueCaseInsensitive
    (UA_UPPER, "Foo", "http://foo.bar/x/y", True),
    (UA_LOWER, "Foo", "http://foo.bar/x/y", True),
    (UA_CAMEL, "Foo", "http://foo.bar/x/y", True),
    (UA_UPPER, "Foo", "http://foo.bar/a/b", False),
    (UA_LOWER, "foo", "http://foo.bar/x/y", True),
    (UA_CAMEL, "foo", "http://foo.bar/a/b", False),
    # GoogleOnly_AcceptUserAgentUpToFirstSpace
    ("User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", "http://foo.bar/x/y", True),
    (
        "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
        "Foo Bar",
        "http://foo.bar/x/y",
        False,
    ),
    # ID_GlobalGroups_Secondary
    ("", "FooBot", "http://foo.bar/x/y", True),
    (GLOBAL, "FooBot", "http://foo.bar/x/y", False),
    (GLOBAL, "BarBot", "http://foo.bar/x/y", True),
    (ONLY_SPECIFIC, "QuxBot", "http://foo.bar/x/y", True),
    # ID_AllowDisallow_Value_CaseSensitive
    ("user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", False),
    ("user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", True),
    # ID_LongestMatch
    ("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", PAGE, False),
    ("user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", PAGE, True),
    ("user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", False),
    ("user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", PAGE, True),
    ("user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", PAGE, True),
    ("user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", False),
    ("user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", True),
    ("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", PAGE, True),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", False),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", True),
    ("user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", PAGE, True),
    ("user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", False),
    ("User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", True),
    ("User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", False),
    # ID_Encoding
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
        "FooBot",
        "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
        True,
    ),
    ("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", True),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
        "FooBot",
        "http://foo.bar/foo/bar/%E3%83%84",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
        "FooBot",
        "http://foo.bar/foo/bar/%62%61%7A",
        True,
    ),
    # ID_SpecialCharacters
    ("User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bar/quz", False),
    ("User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/quz", True),
    ("User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo//quz", True),
    ("User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bax/quz", True),
    ("User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar", False),
    ("User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/qux", True),
    ("User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/", True),
    ("User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/baz", True),
    ("User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/bar", True),
    (
        "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
        "FooBot",
        "http://foo.bar/foo/quz",
        False,
    ),
    # GoogleOnly_IndexHTMLisDirectory
    (INDEX, "foobot", "http://foo.com/allowed-slash/index.htm", False),
    (INDEX, "foobot", "http://foo.com/allowed-slash/index.html", True),
    (INDEX, "foobot", "http://foo.com/anyother-url", False),
    # GoogleOnly_DocumentationChecks
    (FISH, "FooBot", "http://foo.bar/bar", False),
    (FISH, "FooBot", "http://foo.bar/fish", True),
    (FISH, "FooBot", "http://foo.bar/fish.html", True),
    (FISH, "FooBot", "http://foo.bar/fish/salmon.html", True),
    (FISH, "FooBot", "http://foo.bar/fishheads", True),
    (FISH, "FooBot", "http://foo.bar/fishheads/yummy.html", True),
    (FISH, "FooBot", "http://foo.bar/fish.html?id=anything", True),
    (FISH, "FooBot", "http://foo.bar/Fish.asp", False),
    (FISH, "FooBot", "http://foo.bar/catfish", False),
    (FISH, "FooBot", "http://foo.bar/?id=fish", False),
    (FISH_STAR, "FooBot", "http://foo.bar/bar", False),
    (FISH_STAR, "FooBot", "http://foo.bar/fish", True),
    (FISH_STAR, "FooBot", "http://foo.bar/fish.html", True),
    (FISH_STAR, "FooBot", "http://foo.bar/fish/salmon.html", True),
    (FISH_STAR, "FooBot", "http://foo.bar/fishheads", True),
    (FISH_STAR, "FooBot", "http://foo.bar/fishheads/yummy.html", True),
    (FISH_STAR, "FooBot", "http://foo.bar/fish.html?id=anything", True),
    (FISH_STAR, "FooBot", "http://foo.bar/Fish.bar", False),
    (FISH_STAR, "FooBot", "http://foo.bar/catfish", False),
    (FISH_STAR, "FooBot", "http://foo.bar/?id=fish", False),
    (FISH_SLASH, "FooBot", "http://foo.bar/bar", False),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish/", True),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish/salmon", True),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish/?salmon", True),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish/salmon.html", True),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish/?id=anything", True),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish", False),
    (FISH_SLASH, "FooBot", "http://foo.bar/fish.html", False),
    (FISH_SLASH, "FooBot", "http://foo.bar/Fish/Salmon.html", False),
    (PHP, "FooBot", "http://foo.bar/bar", False),
    (PHP, "FooBot", "http://foo.bar/filename.php", True),
    (PHP, "FooBot", "http://foo.bar/folder/filename.php", True),
    (PHP, "FooBot", "http://foo.bar/folder/filename.php?parameters", True),
    (PHP, "FooBot", "http://foo.bar//folder/any.php.file.html", True),
    (PHP, "FooBot", "http://foo.bar/filename.php/", True),
    (PHP, "FooBot", "http://foo.bar/index?f=filename.php/", True),
    (PHP, "FooBot", "http://foo.bar/php/", False),
    (PHP, "FooBot", "http://foo.bar/index?php", False),
    (PHP, "FooBot", "http://foo.bar/windows.PHP", False),
    (PHP_END, "FooBot", "http://foo.bar/bar", False),
    (PHP_END, "FooBot", "http://foo.bar/filename.php", True),
    (PHP_END, "FooBot", "http://foo.bar/folder/filename.php", True),
    (PHP_END, "FooBot", "http://foo.bar/filename.php?parameters", False),
    (PHP_END, "FooBot", "http://foo.bar/filename.php/", False),
    (PHP_END, "FooBot", "http://foo.bar/filename.php5", False),
    (PHP_END, "FooBot", "http://foo.bar/php/", False),
    (PHP_END, "FooBot", "http://foo.bar/filename?php", False),
    (PHP_END, "FooBot", "http://foo.bar/aaaphpaaa", False),
    (PHP_END, "FooBot", "http://foo.bar//windows.PHP", False),
    (FISH_PHP, "FooBot", "http://foo.bar/bar", False),
    (FISH_PHP, "FooBot", "http://foo.bar/fish.php", True),
    (FISH_PHP, "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", True),
    (FISH_PHP, "FooBot", "http://foo.bar/Fish.PHP", False),
    ("user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", True),
    ("user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", True),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", False),
    ("user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", True),
    ("user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", False),
    # ID_UTF8ByteOrderMarkIsSkipped (as matching: the rules after a BOM apply)
    ("\ufeffUser-Agent: foo\nDisallow: /AnyValue\n", "foo", "http://foo.bar/AnyValue", False),
    # line endings: CR, CRLF, mixed
    ("User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", "bar", "http://foo.bar/x", False),
    (
        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        "bar",
        "http://foo.bar/x",
        False,
    ),
]

# Google's answers where this matcher differs on purpose (see DIFFERENCES_FROM_GOOGLE).
DIFFERS = [
    # The test path is percent-encoded here (RFC 9309 2.2.2); Google expects its caller to do it.
    ("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/ツ", False, True),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
        "FooBot",
        "http://foo.bar/foo/bar/ツ",
        False,
        True,
    ),
    # RFC 9309 2.2.2's table: an escaped unreserved character is decoded before comparison.
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
        "FooBot",
        "http://foo.bar/foo/bar/baz",
        False,
        True,
    ),
    # Google-only: allow .../index.html also allows the directory.
    (INDEX, "foobot", "http://foo.com/allowed-slash/", True, False),
]


@pytest.mark.parametrize(("robots", "agent", "url", "allowed"), CASES)
def test_google_case(robots: str, agent: str, url: str, allowed: bool) -> None:
    assert decide(parse(robots), agent, url).allowed is allowed


@pytest.mark.parametrize(("robots", "agent", "url", "google", "ours"), DIFFERS)
def test_documented_difference(robots: str, agent: str, url: str, google: bool, ours: bool) -> None:
    assert google != ours
    assert decide(parse(robots), agent, url).allowed is ours


def test_differences_are_documented() -> None:
    assert len(DIFFERENCES_FROM_GOOGLE) == 5
    assert any("percent-encoded" in d for d in DIFFERENCES_FROM_GOOGLE)
    assert any("%62%61%7A" in d for d in DIFFERENCES_FROM_GOOGLE)
    assert any("index.html" in d for d in DIFFERENCES_FROM_GOOGLE)


def test_line_numbers_and_directive_count_across_line_endings() -> None:
    for text in (
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
    ):
        parsed = parse(text)
        assert [g.lines for g in parsed.groups] == [[1], [3]]
        assert parsed.groups[1].rules[0].line == 6


def test_sitemap_anywhere_and_bom() -> None:
    parsed = parse("Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\n")
    assert parsed.sitemaps == ["http://foo.bar/sitemap.xml"]
    broken = parse("\ufeffUser-Agent: foo\n\ufeffAllow: /AnyValue\n")
    # A BOM inside the file makes line 2 an unknown line: ignored by crawlers, so a warning, not an error.
    assert [(f.line, f.severity) for f in broken.findings if f.line == 2] == [(2, "warning")]
    assert not [f for f in broken.findings if f.severity == "error"]


def test_decision_names_group_and_rule() -> None:
    robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /tmp/\nAllow: /tmp/ok\n"
    d = decide(parse(robots), "googlebot", "/tmp/ok/file")
    assert d.allowed and d.group_kind == "specific" and d.group.agents == ["Googlebot", "Bingbot"]
    assert d.rule.line == 7 and "Allow: /tmp/ok" in d.reason and "line 7" in d.reason
    d = decide(parse(robots), "OtherBot", "/private/x")
    assert not d.allowed and d.group_kind == "global" and d.rule.pattern == "/private/"
    d = decide(parse(robots), "OtherBot", "/public")
    assert d.allowed and d.rule is None and "No rule" in d.reason
