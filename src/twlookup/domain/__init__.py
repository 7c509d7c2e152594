"""Domain knowledge shared by several services (for example Taiwan's calendar of days off)."""
