"""Helpers of the board server's tests: the application under Starlette's test client.

Imported by ``tests/test_board_server*.py``.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # Starlette's TestClient would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tabletop.app.board.document import BoardDocument
from tabletop.app.board.server import create_app

__all__ = [
    "BASE",
    "ROOT",
    "SMALL_SHIP",
    "TOURNAMENT",
    "TestClient",
    "client_of",
    "error_of",
    "scene_text",
]

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "examples" / "xwing-tournament.toml"
#: The address the application under test believes it has.
BASE = "http://127.0.0.1:8765"
SMALL_SHIP: dict[str, Any] = {
    "ruleset": "xwing2",
    "ships": [{"id": "a", "base": "small", "at": [100, 200]}],
}


def client_of(board: BoardDocument, **options: Any) -> TestClient:
    """Return a test client of the board's application at 127.0.0.1:8765."""
    app = create_app(board, host="127.0.0.1", port=8765, **options)
    return TestClient(app, base_url=BASE, raise_server_exceptions=False)


def error_of(response: Any, status: int) -> dict[str, Any]:
    """Return the error object of a refusal, checking its status and its shape."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "where"}
    assert "Traceback" not in response.text
    error: dict[str, Any] = body["error"]
    return error


def scene_text(client: TestClient) -> str:
    """Return the body of ``GET /api/scene`` as it is."""
    response = client.get("/api/scene")
    assert response.status_code == 200
    text: str = response.text
    return text
