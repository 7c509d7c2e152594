"""The seo service's rules, as pure functions, by subject: robots (RFC 9309 parsing and deciding,
generation), serp (snippet widths, meta tags, search URLs), video (chapters and field limits),
indexnow, llms_txt, audit (page facts and the audit's items and score) and ip_ranges (crawler IP ranges)."""
