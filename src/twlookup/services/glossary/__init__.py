"""glossary: AI terms in Taiwan Chinese, comparisons, how-tos, search intent (spec document 2, "glossary")."""
