"""The opinions service's upstream formats: Hacker News and Stack Exchange answers (`foreign`),
PTT and Dcard pages (`taiwan`), and the live search that asks the two outside communities (`live`)."""
