"""seo: search URLs and operators, robots.txt tools, crawler checks, SERP preview, meta tags,
video chapter checks and IndexNow submission (spec document 2, "seo")."""
