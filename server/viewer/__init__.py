"""The browser viewer's page, script and styles (served by server/viewer_routes.py)."""
