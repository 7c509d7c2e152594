"""The opinions service's pure rules: an item's credibility (`credibility`) and the AI-text check
(`aicheck`)."""
