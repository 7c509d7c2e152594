"""robots.txt per RFC 9309: parsing with line-numbered format findings, and matching that says
which group and which rule decided.

Matching (RFC 9309 section 2.2): the groups whose product tokens equal the crawler's token
(case-insensitive) are merged; if none, the `*` groups; if none, everything is allowed. Among the
rules of the chosen groups that match the path, the longest pattern (in octets, after
percent-encoding) wins; on a tie `allow` wins. `*` matches any run of characters, `$` at the end
anchors the pattern. Paths and patterns are compared percent-encoded (non-ASCII octets encoded,
hex digits upper-cased); a rule with an empty pattern matches nothing.

Google's parser (google/robotstxt) is the oracle for the tests; where this module differs on
purpose it is listed in DIFFERENCES_FROM_GOOGLE.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

DIFFERENCES_FROM_GOOGLE = [
    "The path to test is percent-encoded here before matching, as RFC 9309 section 2.2.2 requires "
    "(Google's library leaves that to its caller): /foo/bar/ツ matches the rule /foo/bar/%E3%83%84.",
    "Google treats an allow rule ending in /index.html (or .htm) as also allowing the directory "
    "itself (/dir/); that is a Google-only extension and is not applied here.",
    "Google ignores the part of a line past 16,664 bytes; lines are read whole here.",
]

MAX_BYTES = 512_000  # RFC 9309 2.5: crawlers must parse at least 500 KiB
GOOGLE_TYPOS = {
    "user-agent": ("useragent", "user agent"),
    "disallow": ("dissallow", "dissalow", "disalow", "diasllow", "disallaw"),
    "sitemap": ("site-map",),
}
KNOWN_OTHER = {"crawl-delay", "host", "clean-param", "noindex", "request-rate", "visit-time", "content-signal"}
TOKEN = re.compile(r"^[A-Za-z_-]+$")


@dataclass(frozen=True)
class Rule:
    kind: str  # allow | disallow
    pattern: str  # as written
    encoded: str  # percent-encoded form used for matching
    line: int


@dataclass
class Group:
    agents: list[str]  # product tokens as written (up to the first space)
    lines: list[int]
    rules: list[Rule] = field(default_factory=list)


@dataclass(frozen=True)
class Finding:
    line: int
    severity: str  # error | warning
    message: str


@dataclass
class Parsed:
    groups: list[Group]
    sitemaps: list[str]
    findings: list[Finding]


@dataclass(frozen=True)
class Decision:
    allowed: bool
    path: str  # the path as matched (percent-encoded)
    group: Group | None  # the group (first of the merged ones) that applied, None when no group did
    group_kind: str  # specific | global | none
    rule: Rule | None  # the deciding rule; None when no rule matched
    reason: str


def encode(text: str) -> str:
    """Percent-encode octets outside printable ASCII; upper-case existing %xx escapes."""
    out: list[str] = []
    raw = text.encode("utf-8")
    i = 0
    while i < len(raw):
        byte = raw[i]
        if byte == 0x25 and i + 2 < len(raw) and re.fullmatch(rb"[0-9A-Fa-f]{2}", raw[i + 1 : i + 3]):
            out.append("%" + raw[i + 1 : i + 3].decode().upper())
            i += 3
            continue
        out.append(chr(byte) if 0x21 <= byte <= 0x7E else f"%{byte:02X}")
        i += 1
    return "".join(out)


def path_of(target: str) -> str:
    """The path, parameters and query of a URL or path (no fragment), starting with '/'."""
    target = target.strip()
    if "://" in target or target.startswith("//"):
        parts = urlsplit(target if "://" in target else "http:" + target)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return path
    target = target.split("#", 1)[0]
    if not target.startswith("/"):
        target = "/" + target
    return target


def _key(raw: str) -> tuple[str | None, bool]:
    """The directive a key names and whether it was a tolerated typo."""
    key = raw.strip().lower()
    if key in ("user-agent", "allow", "disallow", "sitemap"):
        return key, False
    for name, typos in GOOGLE_TYPOS.items():
        if any(key.startswith(t) for t in typos):
            return name, True
    return None, False


def parse(text: str) -> Parsed:
    text = text.lstrip("\ufeff")
    for partial in ("\u00ef\u00bb\u00bf", "\u00ef\u00bb", "\u00ef"):  # a BOM read as Latin-1
        if text.startswith(partial):
            text = text[len(partial) :]
            break
    groups: list[Group] = []
    sitemaps: list[str] = []
    findings: list[Finding] = []
    current: Group | None = None
    last_was_agent = False
    if len(text.encode("utf-8")) > MAX_BYTES:
        findings.append(
            Finding(0, "warning", f"The file is larger than {MAX_BYTES} bytes; crawlers may ignore what follows.")
        )
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if ":" in content:
            raw_key, value = content.split(":", 1)
        else:
            pieces = content.split(None, 1)
            if len(pieces) != 2 or _key(pieces[0])[0] is None:
                findings.append(Finding(number, "error", f"Not a 'name: value' line: {content[:80]!r}; it is ignored."))
                continue
            raw_key, value = pieces
            findings.append(
                Finding(number, "warning", f"Missing ':' after {raw_key!r} (Google accepts it; others may not).")
            )
        value = value.strip()
        key, typo = _key(raw_key)
        if typo:
            findings.append(
                Finding(
                    number,
                    "warning",
                    f"{raw_key.strip()!r} is a misspelling of {key!r} (Google accepts it; others may not).",
                )
            )
        if key is None:
            name = raw_key.strip().lower()
            if name in KNOWN_OTHER:
                findings.append(
                    Finding(number, "warning", f"{raw_key.strip()!r} is not part of RFC 9309; Google ignores it.")
                )
            else:
                findings.append(Finding(number, "error", f"Unknown directive {raw_key.strip()!r}; it is ignored."))
            continue
        if key == "sitemap":
            if not re.match(r"^https?://", value, re.I):
                findings.append(Finding(number, "error", "Sitemap must be an absolute http(s) URL."))
            else:
                sitemaps.append(value)
            continue
        if key == "user-agent":
            token = value.split(None, 1)[0] if value else ""
            if not token:
                findings.append(Finding(number, "error", "Empty user-agent; the line is ignored."))
                continue
            if token != "*" and not TOKEN.match(token):
                findings.append(
                    Finding(
                        number,
                        "warning",
                        f"User-agent {value!r} is not a product token (letters, '_' and '-' only); crawlers may not match it.",
                    )
                )
            elif " " in value:
                findings.append(
                    Finding(number, "warning", f"User-agent {value!r} has a space; only {token!r} is matched.")
                )
            if current is not None and last_was_agent:
                current.agents.append(token)
                current.lines.append(number)
            else:
                current = Group([token], [number])
                groups.append(current)
            last_was_agent = True
            continue
        # allow / disallow
        if current is None:
            findings.append(
                Finding(number, "error", f"{key.capitalize()} before any User-agent line; it applies to no crawler.")
            )
            continue
        last_was_agent = False
        if value and not value.startswith(("/", "*")):
            findings.append(
                Finding(
                    number, "warning", f"Pattern {value!r} should start with '/' or '*'; it matches no path as written."
                )
            )
        if "$" in value[:-1]:
            findings.append(Finding(number, "warning", f"'$' is special only at the end of a pattern: {value!r}."))
        current.rules.append(Rule(key, value, encode(value), number))
    for group in groups:
        if not group.rules:
            findings.append(
                Finding(
                    group.lines[0], "warning", f"Group for {', '.join(group.agents)} has no allow or disallow rule."
                )
            )
    findings.sort(key=lambda f: f.line)
    return Parsed(groups, sitemaps, findings)


def match_length(pattern: str, path: str) -> int:
    """Length of pattern when it matches path from the start, else -1 (RFC 9309 '*' and '$')."""
    if not pattern:
        return -1
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = "".join(".*" if ch == "*" else re.escape(ch) for ch in body)
    found = re.match(regex + ("$" if anchored else ""), path, re.DOTALL)
    return len(pattern) if found else -1


def decide(parsed: Parsed, user_agent: str, target: str) -> Decision:
    path = encode(path_of(target))
    agent = user_agent.strip().lower()
    specific = [g for g in parsed.groups if agent and any(a.lower() == agent for a in g.agents)]
    chosen, kind = (specific, "specific") if specific else ([g for g in parsed.groups if "*" in g.agents], "global")
    if not chosen:
        return Decision(
            True,
            path,
            None,
            "none",
            None,
            "No group applies to this crawler and there is no '*' group: everything is allowed.",
        )
    best: tuple[int, int, Rule] | None = None  # (length, allow wins ties, rule)
    for group in chosen:
        for rule in group.rules:
            length = match_length(rule.encoded, path)
            if length < 0:
                continue
            score = (length, 1 if rule.kind == "allow" else 0)
            if best is None or score > best[:2]:
                best = (*score, rule)
    lead = chosen[0]
    who = f"the group for {', '.join(lead.agents)} (line {lead.lines[0]})"
    if len(chosen) > 1:
        who = f"the {len(chosen)} groups for {user_agent if kind == 'specific' else '*'} merged (first at line {lead.lines[0]})"
    if best is None:
        return Decision(True, path, lead, kind, None, f"No rule of {who} matches {path}: allowed.")
    rule = best[2]
    verdict = "allowed" if rule.kind == "allow" else "disallowed"
    return Decision(
        rule.kind == "allow",
        path,
        lead,
        kind,
        rule,
        f"In {who}, '{rule.kind.capitalize()}: {rule.pattern}' (line {rule.line}) is the longest matching rule: {verdict}.",
    )
