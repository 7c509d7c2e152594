"""motion: web animation generators (spec document 2, "motion")."""
