"""share: rankings of videos and posts that Taiwan users share (spec document 3, "share")."""
