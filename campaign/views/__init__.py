"""The campaign's pages, one module per page family: campaign (map, history, report,
kingdom), setup, orders, dashboard, rules, health. Each module lists its `urlpatterns`."""
