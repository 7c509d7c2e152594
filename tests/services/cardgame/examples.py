"""Example inputs of the cardgame service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "get_chapter": {"slug": "how-a-turn-goes"},
    "search_rules": {"q": "tribute summon"},
    "lookup_term": {"q": "banlist"},
    "get_card_status": {"name": "Pot of Greed"},
}
PRO_CALLS: dict = {}
