"""What a route needs from the running server, as FastAPI dependencies.

`create_app` (server/app.py) keeps the server's parts on `app.state`; the arena, records, admin and viewer
routes read them through these functions only (the vision service has its own, in server/vision.py, which
loads only under `serve --vision`; server/play/ and server/cards/routes.py still read `app.state` directly).
A route names what it needs in its signature (`referee: RefereeDep`), so a test can hand it a stand-in with
`app.dependency_overrides[referee_of] = ...` instead of building a whole server.

The functions are `async` on purpose: FastAPI runs a plain `def` dependency in a worker thread, a thread
hop per request for reading one attribute.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from server.accounts import Accounts
from server.cards import CardImages
from server.referee import Referee
from server.replay_file_store import ReplayFileStore
from server.settings import Settings
from server.storage.records import Records


async def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def referee_of(request: Request) -> Referee:
    referee: Referee = request.app.state.referee
    return referee


async def records_of(request: Request) -> Records:
    records: Records = request.app.state.records
    return records


async def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def images_of(request: Request) -> CardImages:
    images: CardImages = request.app.state.images
    return images


async def replay_files_of(request: Request) -> ReplayFileStore:
    store: ReplayFileStore = request.app.state.replay_files
    return store


async def admin_token_of(request: Request) -> str:
    token: str = request.app.state.admin_token  # never logged, never in the records
    return token


SettingsDep = Annotated[Settings, Depends(settings_of)]
RefereeDep = Annotated[Referee, Depends(referee_of)]
RecordsDep = Annotated[Records, Depends(records_of)]
AccountsDep = Annotated[Accounts, Depends(accounts_of)]
ImagesDep = Annotated[CardImages, Depends(images_of)]
ReplayFilesDep = Annotated[ReplayFileStore, Depends(replay_files_of)]
AdminTokenDep = Annotated[str, Depends(admin_token_of)]
