// The Rummy Vision viewer: the list of matches, live spectating, and the step-through of finished matches.
// Plain JavaScript served by the local server; it reads /games and /viewer/api/games/{id}/{live,steps}.
"use strict";

(() => {
  const LIVE_POLL_MS = 500;
  const LIST_POLL_MS = 2000;
  const RETRY_MS = 2000;

  const $ = (id) => document.getElementById(id);

  // One "generation" per shown view: a poll loop of an earlier view sees a newer generation and stops.
  let generation = 0;
  let game = null; // {kind: "game" | "file", id, mode: "live" | "steps", data, index}

  // --- small helpers ---------------------------------------------------------------------------

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  async function getJson(url) {
    return answerOf(fetch(url, { cache: "no-store" }), url);
  }

  async function answerOf(pending, url) {
    try {
      const response = await pending;
      if (response instanceof Error) throw response;
      let body;
      try {
        body = await response.json();
      } catch {
        body = { ErrorMessage: `${url} answered HTTP ${response.status} without JSON` };
      }
      return { status: response.status, body };
    } catch (error) {
      return { status: 0, body: { ErrorMessage: `cannot reach the server (${error.message})` } };
    }
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function later(callback, ms, mine) {
    setTimeout(() => {
      if (mine === generation) callback();
    }, ms);
  }

  function statusClass(status) {
    return `badge status-${String(status || "unknown").toLowerCase()}`;
  }

  function styleName(styleId) {
    return styleId === 0 ? "in process" : `style ${styleId}`;
  }

  function formatTime(epochSeconds) {
    if (!epochSeconds) return "";
    return new Date(epochSeconds * 1000).toLocaleString();
  }

  function describeMove(move, player, opponent) {
    if (!move || typeof move !== "object") return JSON.stringify(move);
    if (Array.isArray(move.Lay)) return `${player} lays ${move.Lay.join(", ")}`;
    if (move.Take !== undefined) return `${player} takes card ${move.Take} from ${opponent}`;
    if (move.Give !== undefined) return `${player} gives card ${move.Give} to ${opponent}`;
    return `${player} plays ${JSON.stringify(move)}`;
  }

  // --- routing: #run/3, #game/12, #game/12/step/5, #file/2 and #file/2/step/5; anything else is the list ------

  function route() {
    const run = /^#run\/(\d+)$/.exec(location.hash);
    if (run) {
      openRun(Number(run[1]));
      return;
    }
    const match = /^#(game|file)\/(\d+)(?:\/step\/(\d+))?$/.exec(location.hash);
    if (match) {
      const kind = match[1];
      const id = Number(match[2]);
      const step = match[3] === undefined ? null : Number(match[3]);
      if (game && game.kind === kind && game.id === id && game.mode === "steps" && step !== null) {
        goTo(step);
        return;
      }
      openGame(id, step, kind);
    } else {
      openList();
    }
  }

  // --- the list of matches ---------------------------------------------------------------------

  function openList() {
    const mine = ++generation;
    game = null;
    document.title = "Rummy Vision viewer";
    $("game-view").hidden = true;
    $("run-view").hidden = true;
    $("list-view").hidden = false;
    showError("");
    refreshList(mine);
  }

  async function refreshList(mine) {
    const { status, body } = await getJson("/viewer/api/entries");
    if (mine !== generation) return;
    if (status !== 200) {
      showError(`The list of matches failed: ${body.ErrorMessage || status}`);
    } else {
      showError("");
      renderList(body.Entries || []);
    }
    later(() => refreshList(mine), LIST_POLL_MS, mine);
  }

  function renderList(entries) {
    const rows = $("games").tBodies[0];
    rows.replaceChildren();
    $("games-empty").hidden = entries.length > 0;
    $("games").hidden = entries.length === 0;
    for (const entry of entries) {
      rows.append(entry.Entry === "run" ? runRow(entry) : entry.Entry === "file" ? fileRow(entry) : gameRow(entry));
    }
  }

  function runRow(entry) {
    const row = el("tr", "run-row");
    row.dataset.runId = entry.RunId;
    row.dataset.kind = entry.Kind;
    // A tournament goes by the number the CLI printed for it; a match run by its run number.
    const name = entry.Kind === "tournament" ? `Tournament ${entry.TournamentId ?? entry.RunId}` : `Match run ${entry.RunId}`;
    const link = el("a", null, name);
    link.href = `#run/${entry.RunId}`;
    const idCell = el("td");
    idCell.append(link);
    const players = el("td", "players");
    const separator = entry.Players.length > 2 ? ", " : " vs ";
    entry.Players.forEach((name, index) => {
      if (index) players.append(el("span", "vs", separator));
      players.append(el("span", "player", name));
    });
    const leader = entry.Standings && entry.Standings.Rows && entry.Standings.Rows[0];
    const statusCell = el("td");
    statusCell.append(el("span", "badge status-finished", "finished"));
    row.append(
      idCell,
      players,
      statusCell,
      el("td", "num", entry.Kind === "match" ? entry.Standings.Rows.map((cells) => cells[1]).join(" : ") : ""),
      el("td", "num", entry.Games),
      el("td", null, entry.Kind === "tournament" ? `tournament${leader ? ", leader " + leader[1] : ""}` : "match run"),
      el("td", "time", formatTime(entry.StartedAt)),
    );
    row.addEventListener("click", (event) => {
      if (event.target.tagName !== "A") location.hash = `#run/${entry.RunId}`;
    });
    return row;
  }

  // A match's first cells in any list: its number, linking to it, and its two players.
  function matchCells(entry) {
    const link = el("a", null, `#${entry.GameId}`);
    link.href = `#game/${entry.GameId}`;
    const idCell = el("td");
    idCell.append(link);
    const players = el("td", "players");
    players.append(el("span", "player", entry.Players[0]), el("span", "vs", " vs "), el("span", "player", entry.Players[1]));
    return [idCell, players];
  }

  function gameRow(entry) {
    const row = el("tr", "game-row");
    row.dataset.gameId = entry.GameId;
    row.dataset.status = entry.Status;
    const [idCell, players] = matchCells(entry);
    const statusCell = el("td");
    const label = entry.Status === "RUNNING" ? "running" : entry.Status.toLowerCase();
    statusCell.append(el("span", statusClass(entry.Status), label));
    if (entry.EndReason && entry.EndReason !== "completed") statusCell.append(el("span", "reason", ` ${entry.EndReason}`));
    const won = entry.Status === "RUNNING" ? "" : `${entry.RoundsWon[0]} : ${entry.RoundsWon[1]}`;
    row.append(
      idCell,
      players,
      statusCell,
      el("td", "num", won),
      el("td", "num", entry.NumberOfRounds),
      el("td", null, styleName(entry.GameStyleId)),
      el("td", "time", formatTime(entry.StartedAt)),
    );
    row.addEventListener("click", (event) => {
      if (event.target.tagName !== "A") location.hash = `#game/${entry.GameId}`;
    });
    return row;
  }

  // A replay file sent to this viewer (`rummy-vision replay FILE --viewer`): one player's recording.
  function fileRow(entry) {
    const row = el("tr", "file-row");
    row.dataset.fileId = entry.FileId;
    const link = el("a", null, `File ${entry.FileId}`);
    link.href = `#file/${entry.FileId}`;
    const idCell = el("td");
    idCell.append(link);
    const players = el("td", "players");
    players.append(el("span", "player", entry.Players[0]), el("span", "vs", " vs "), el("span", "player", entry.Players[1]));
    const statusCell = el("td");
    statusCell.append(el("span", statusClass(entry.Status), entry.Status.toLowerCase().replaceAll("_", " ")));
    row.append(
      idCell,
      players,
      statusCell,
      el("td", "num", `${entry.RoundsWon[0]} : ${entry.RoundsWon[1]}`),
      el("td", "num", ""),
      el("td", "file-name", `replay file ${entry.Name}`),
      el("td", "time", formatTime(entry.StartedAt)),
    );
    row.addEventListener("click", (event) => {
      if (event.target.tagName !== "A") location.hash = `#file/${entry.FileId}`;
    });
    return row;
  }

  // --- a match run or a tournament: standings, then its rounds ---------------------------------

  async function openRun(id) {
    const mine = ++generation;
    game = null;
    $("list-view").hidden = true;
    $("game-view").hidden = true;
    $("run-view").hidden = false;
    showError("");
    const { status, body } = await getJson(`/viewer/api/runs/${id}`);
    if (mine !== generation) return;
    if (status !== 200) {
      showError(body.ErrorMessage || `HTTP ${status}`);
      return;
    }
    renderRun(body);
  }

  function fillTable(table, data, rowClass, textColumns) {
    const headRow = el("tr");
    data.Columns.forEach((name, index) => headRow.append(el("th", index > textColumns ? "num" : null, name)));
    table.tHead.replaceChildren(headRow);
    table.tBodies[0].replaceChildren(
      ...data.Rows.map((cells) => {
        const row = el("tr", rowClass);
        cells.forEach((cell, index) => row.append(el("td", index > textColumns ? "num" : null, cell)));
        return row;
      }),
    );
  }

  function renderRun(run) {
    $("run-title").textContent = run.Title;
    document.title = `${run.Title} - Rummy Vision viewer`;
    $("run-kind").className = "badge status-finished";
    $("run-kind").textContent = run.Kind === "tournament" ? "tournament" : "match run";
    fillTable($("standings"), run.Standings, "standing-row", 1);
    // A tournament's pairs: rounds won each way, the win rate and the mean margin with 95% intervals.
    $("head-to-head-box").hidden = !run.HeadToHead;
    if (run.HeadToHead) fillTable($("head-to-head"), run.HeadToHead, "pair-row", 0);
    const rows = $("run-games").tBodies[0];
    rows.replaceChildren(
      ...run.Games.map((entry) => {
        const row = el("tr", "run-game-row");
        row.dataset.gameId = entry.GameId;
        const [idCell, players] = matchCells(entry);
        const statusCell = el("td");
        statusCell.append(el("span", statusClass(entry.Status), entry.Status.toLowerCase()));
        row.append(
          idCell,
          el("td", null, `${entry.Position + 1}: ${entry.Label}`),
          players,
          statusCell,
          el("td", "num", `${entry.RoundsWon[0]} : ${entry.RoundsWon[1]}`),
          el("td", "time", formatTime(entry.StartedAt)),
        );
        row.addEventListener("click", (event) => {
          if (event.target.tagName !== "A") location.hash = `#game/${entry.GameId}`;
        });
        return row;
      }),
    );
  }

  // --- one match -------------------------------------------------------------------------------

  async function openGame(id, step, kind = "game") {
    const mine = ++generation;
    game = { kind, id, mode: null, data: null, index: 0 };
    $("list-view").hidden = true;
    $("run-view").hidden = true;
    $("game-view").hidden = false;
    $("back").href = "#";
    $("back").textContent = "\u2190 All matches";
    $("game-title").textContent = kind === "file" ? `Replay file ${id}` : `Game ${id}`;
    $("pictures-note").hidden = true;
    $("game-status").textContent = "";
    $("game-result").textContent = "";
    $("live-bar").hidden = true;
    $("step-controls").hidden = true;
    clearBoard();
    showError("");
    // Ask for the steps first (one request fewer for a finished match, the common case): a running match
    // answers 409 and is spectated. The answer carries the opening step's pictures when they are drawn.
    const opening = Math.max(0, Number(step) || 0);
    const { status, body } = await stepsOf(kind, id, opening);
    if (mine !== generation) return;
    if (status === 200) startSteps(body, step);
    else if (status === 409 && kind === "game") startLive(id, mine);
    else showError(body.ErrorMessage || `HTTP ${status}`);
  }

  // The page's head asks for the steps of the match its address names before this script arrives (see
  // index.html): that answer is taken once, by the first opening of that match at that step.
  function stepsOf(kind, id, opening) {
    const url = `/viewer/api/${kind === "file" ? "files" : "games"}/${id}/steps?pictures=${opening}`;
    const early = window.earlySteps;
    window.earlySteps = null;
    if (early && early.url === url) return answerOf(early.answer, url);
    return getJson(url);
  }

  function clearBoard() {
    for (const id of ["move-text", "move-cards", "seat-0", "seat-1", "table-info", "suggestions"]) $(id).replaceChildren();
    $("round-ended").hidden = true;
    $("suggestions").hidden = true;
    $("mismatches").hidden = true;
  }

  function header(data) {
    const what = data.Source === "file" ? `Replay file ${data.FileId} (${data.Name})` : `Game ${data.GameId}`;
    $("game-title").textContent = `${what}: ${data.Players[0]} vs ${data.Players[1]}`;
    document.title = `${data.Source === "file" ? `Replay file ${data.FileId}` : `Game ${data.GameId}`} - Rummy Vision viewer`;
    const badge = $("game-status");
    badge.className = statusClass(data.Status);
    badge.textContent = data.Status === "RUNNING" ? "running" : data.Status.toLowerCase();
    let result = "";
    if (data.Source === "file") {
      const last = data.Steps[data.Steps.length - 1].Seats[0];
      result = `recorded by ${data.Players[0]}` + (data.RecordedOn ? ` on ${data.RecordedOn}` : "");
      if (last.GameStatus !== "RUNNING") result += ` \u00b7 ${data.Players[0]} ${last.GameStatus}`;
      result += ` \u00b7 rounds won ${data.RoundsWon[0]} : ${data.RoundsWon[1]}`;
    } else if (data.Status !== "RUNNING" && data.GameStatus && data.GameStatus[0]) {
      result = `${data.Players[0]} ${data.GameStatus[0]} \u00b7 rounds won ${data.RoundsWon[0]} : ${data.RoundsWon[1]}`;
      if (data.EndReason && data.EndReason !== "completed") result += ` \u00b7 ended by ${data.EndReason}`;
    }
    $("game-result").textContent = result;
  }

  function cardTile(card, landmarks, small) {
    const tile = el("figure", small ? "card small" : "card");
    tile.dataset.cardId = card.Id;
    if (!card.Url) {
      // A card of a replay file its recognizer never labelled: no picture and no name, never a guess.
      tile.classList.add("unknown");
      const blank = el("div", "card-blank", "?");
      blank.title = "the file never labelled this card";
      const caption = el("figcaption");
      caption.append(el("span", "card-id", `#${card.Id}`), el("span", "card-landmark", "unknown"));
      tile.append(blank, caption);
      return tile;
    }
    const image = el("img");
    // People see the landmark's name on the local server's cards once the match may show it (the
    // server refuses captions of a match still in play); the small WebP keeps a 20-card step quick.
    const query = card.Landmark ? "?caption=1&small=1" : "?small=1";
    const url = card.Url.startsWith("/cards/") ? `${card.Url}${query}` : card.Url;
    // A picture that came inline with the steps shows without a request of its own.
    const inline = game && game.data && game.data.Pictures;
    image.src = (inline && inline[url]) || url;
    image.alt = `card ${card.Id}`;
    image.draggable = false;
    tile.append(image);
    const caption = el("figcaption");
    caption.append(el("span", "card-id", `#${card.Id}`));
    if (card.Landmark) {
      const index = landmarks ? landmarks.indexOf(card.Landmark) : -1;
      tile.classList.add(`lm-${index >= 0 ? index : "x"}`);
      caption.append(el("span", "card-landmark", card.Landmark));
    }
    tile.append(caption);
    return tile;
  }

  function renderSeat(seatIndex, seat, landmarks, extra) {
    const box = $(`seat-${seatIndex}`);
    box.replaceChildren();
    box.classList.toggle("mover", Boolean(seat.IsMover));
    const head = el("div", "seat-head");
    head.append(el("span", "seat-name", seat.Name), el("span", "seat-label", `seat ${seatIndex}`));
    if (seat.IsMover) head.append(el("span", "to-move", "to move"));
    if (extra) head.append(el("span", statusClass(extra), extra.toLowerCase().replaceAll("_", " ")));
    const stats = el("span", "seat-stats");
    stats.append(
      el("span", "stat", `points ${seat.Points}`),
      el("span", "stat", `rounds won ${seat.Score}`),
      el("span", "stat", `${seat.Hand.length} cards`),
    );
    head.append(stats);
    const hand = el("div", "hand");
    for (const card of seat.Hand) hand.append(cardTile(card, landmarks, false));
    box.append(head, hand);
  }

  function infoItem(label, value) {
    const item = el("div", "info-item");
    item.append(el("span", "info-label", label), el("span", "info-value", value));
    return item;
  }

  function showRoundEnded(ended, data, shownRound, moveRound, nextRound) {
    const box = $("round-ended");
    box.hidden = !ended;
    if (!ended) return;
    const winner = data.Players[ended.Winner];
    let text = `Round ${ended.Round + 1} over: ${data.Players[0]} ${ended.Points[0]} : ${ended.Points[1]} ${data.Players[1]}`;
    text += `, ${winner} wins the round`;
    if (shownRound !== moveRound) {
      text += `. Round ${shownRound + 1} is dealt`;
      if (nextRound) text += `; ${data.Players[nextRound.FirstMover]} moves first`;
    }
    box.textContent = text;
  }

  // --- live spectating -------------------------------------------------------------------------

  function startLive(id, mine) {
    game.mode = "live";
    $("review-link").hidden = true;
    $("live-bar").hidden = false;
    $("step-controls").hidden = true;
    pollLive(id, mine);
  }

  async function pollLive(id, mine) {
    const { status, body } = await getJson(`/viewer/api/games/${id}/live`);
    if (mine !== generation) return;
    if (status === 200 && body.Live) {
      showError("");
      renderLive(body);
      later(() => pollLive(id, mine), LIVE_POLL_MS, mine);
    } else if (status === 200) {
      // The match has just ended: show how it went, from its last step.
      openGame(id, null);
    } else {
      showError(body.ErrorMessage || `HTTP ${status}`);
      if (status === 0 || status >= 500) later(() => pollLive(id, mine), RETRY_MS, mine);
    }
  }

  function renderLive(data) {
    header(data);
    const mover = data.Mover === null || data.Mover === undefined ? null : data.Players[data.Mover];
    $("live-info").textContent =
      `round ${data.Round + 1} of ${data.NumberOfRounds} \u00b7 turn ${data.RoundTurn} of the round` + (mover ? ` \u00b7 ${mover} to move` : "");
    const last = data.LastMove;
    const moveText = $("move-text");
    const moveCards = $("move-cards");
    moveCards.replaceChildren();
    moveText.replaceChildren();
    if (last) {
      moveText.append(el("span", "move-label", "Last move"));
      moveText.append(el("span", "move-main", describeMove(last.Move, last.Player, data.Players[1 - last.Mover])));
      if (last.Note) moveText.append(el("span", last.Note.startsWith("+") ? "note points" : "note", last.Note));
      for (const card of last.MoveCards || []) moveCards.append(cardTile(card, null, true));
    } else {
      moveText.append(el("span", "move-main", "Dealt; waiting for the first move"));
    }
    showRoundEnded(last && last.RoundEnded, data, data.Round, last ? last.Round : data.Round, null);
    data.Seats.forEach((seat, index) => renderSeat(index, seat, null, null));
    const info = $("table-info");
    info.replaceChildren(
      infoItem("Round", `${data.Round + 1} / ${data.NumberOfRounds}`),
      infoItem("Deck", `${data.CardsInDeck} cards`),
      infoItem("Moves left", data.RemainingMoves),
      infoItem("Landmarks", "hidden until the match ends"),
    );
  }

  // --- step-through ----------------------------------------------------------------------------

  function startSteps(data, step) {
    game.mode = "steps";
    game.data = data;
    header(data);
    // Every finished match can be reviewed: each decision graded against the engine (a file: from the file alone).
    $("review-link").href = data.Source === "file" ? data.Review : `/viewer/review/${data.GameId}`;
    $("pictures-note").hidden = !data.PicturesNote;
    $("pictures-note").textContent = data.PicturesNote || "";
    $("review-link").hidden = false;
    if (data.RunId !== null && data.RunId !== undefined) {
      // A round of a match run or a tournament: back leads to its standings and the other rounds.
      $("back").href = `#run/${data.RunId}`;
      $("back").textContent = "\u2190 Its match run / tournament";
    }
    $("live-bar").hidden = true;
    $("step-controls").hidden = false;
    const mismatches = $("mismatches");
    mismatches.hidden = !(data.Mismatches && data.Mismatches.length);
    mismatches.textContent = mismatches.hidden ? "" : `Replay warnings: ${data.Mismatches.join("; ")}`;
    goTo(step === null || step === undefined ? 0 : step);
  }

  function goTo(number) {
    if (!game || game.mode !== "steps") return;
    const steps = game.data.Steps;
    game.index = Math.max(0, Math.min(steps.length - 1, Number(number) || 0));
    history.replaceState(null, "", `#${game.kind}/${game.id}/step/${game.index}`);
    renderStep(game.data, steps[game.index]);
  }

  function renderStep(data, step) {
    const steps = data.Steps;
    const rounds = data.Rounds || [];
    const shownRound = rounds[step.ViewRound] || rounds[rounds.length - 1] || { Landmarks: [] };
    const landmarks = shownRound.Landmarks || [];

    $("step-counter").textContent = `Step ${step.Step} / ${steps.length - 1}`;
    $("round-indicator").textContent = `Round ${step.ViewRound + 1} of ${data.NumberOfRounds}`;
    $("first").disabled = $("prev").disabled = game.index === 0;
    $("last").disabled = $("next").disabled = game.index === steps.length - 1;

    const moveText = $("move-text");
    const moveCards = $("move-cards");
    moveCards.replaceChildren();
    moveText.replaceChildren();
    if (step.Move) {
      moveText.append(el("span", "move-main", describeMove(step.Move, step.Player, data.Players[1 - step.Mover])));
      if (step.Note) moveText.append(el("span", step.Note.startsWith("+") ? "note points" : "note", step.Note));
      const moveRound = rounds[step.Round];
      const moveLandmarks = moveRound ? moveRound.Landmarks : landmarks;
      for (const card of step.MoveCards || []) moveCards.append(cardTile(card, moveLandmarks, true));
      if (step.Drawn) {
        // The card the mover took from the deck after the move; it is outlined in the mover's hand.
        const drew = el("span", "note drawn", `drew #${step.Drawn.Id}` + (step.Drawn.Landmark ? ` ${step.Drawn.Landmark}` : ""));
        drew.id = "drawn-card";
        moveText.append(drew);
      }
    } else if (step.Result === "DEAL") {
      const first = data.Players[rounds[0] ? rounds[0].FirstMover : 0];
      moveText.append(el("span", "move-main", `The deal of round 1: ${first} moves first`));
    } else if (step.Result === "TIMEOUT") {
      const late = step.Seats.findIndex((seat) => seat.GameStatus === "LOST_BY_TIMEOUT");
      const who = late >= 0 ? data.Players[late] : "a player";
      moveText.append(el("span", "move-main", `${who} missed its deadline and loses the match`));
    } else {
      moveText.append(el("span", "move-main", step.Note || step.Result));
    }

    showRoundEnded(step.RoundEnded, data, step.ViewRound, step.Round, rounds[step.ViewRound]);

    const over = step.Seats[0].GameStatus !== "RUNNING";
    step.Seats.forEach((seat, index) => renderSeat(index, seat, landmarks, over ? seat.GameStatus : null));
    if (step.Drawn) {
      const tile = document.querySelector(`#seat-${step.Mover} .card[data-card-id="${step.Drawn.Id}"]`);
      if (tile) tile.classList.add("just-drawn");
    }

    const legend = el("div", "legend");
    landmarks.forEach((name, index) => legend.append(el("span", `chip lm-${index}`, name)));
    const landmarkItem = infoItem("Landmarks", "");
    landmarkItem.querySelector(".info-value").replaceWith(legend);
    landmarkItem.classList.add("landmarks");
    $("table-info").replaceChildren(
      infoItem("Round", `${step.ViewRound + 1} / ${data.NumberOfRounds}`),
      infoItem("Deck", `${step.CardsInDeck} cards`),
      infoItem("Moves left", step.RemainingMoves),
      landmarkItem,
    );

    renderSuggestions(step, data);
    renderLog(step);
    renderAnalysisButton(step);
  }

  // "Analyse this position": the moves of the player to move after this step, ranked by the server's
  // expectimax at a node budget (the same ranking as `replay GAME --turn N --position P.json`, then
  // `analyze P.json --strategy expectimax --nodes 20000`). Matches in the records only.
  function renderAnalysisButton(step) {
    const box = $("position-analysis");
    if (!box) return;
    box.replaceChildren();
    const over = step.Seats[0].GameStatus !== "RUNNING";
    box.hidden = !(game && game.kind === "game") || over;
    if (box.hidden) return;
    const base = `/viewer/api/games/${game.id}/steps/${step.Step}`;
    const button = el("button", "analyse", "analyse this position");
    const download = el("a", "position-link", "position JSON");
    download.href = `${base}/position`;
    download.download = `match-${game.id}-step-${step.Step}.json`;
    button.addEventListener("click", async () => {
      button.disabled = true;
      button.textContent = "analysing...";
      try {
        const { status, body: answer } = await getJson(`${base}/analysis`);
        if (status !== 200) throw new Error(answer.ErrorMessage || `the analysis answered HTTP ${status}`);
        const table = el("table", "suggestion-table");
        const head = el("tr");
        for (const title of ["#", "move", "landmarks", answer.objective === "win" ? "P(win)" : "margin"]) head.append(el("th", null, title));
        table.append(head);
        answer.moves.forEach((ranked, index) => {
          const row = el("tr");
          const value = typeof ranked.value === "number" ? ranked.value.toFixed(3) : "";
          for (const cell of [index + 1, JSON.stringify(ranked.move), ranked.label, value]) row.append(el("td", null, cell));
          table.append(row);
        });
        const how = `${answer.strategy}, ${answer.nodes} nodes, ${answer.exact ? "exact" : "estimates"}`;
        box.append(el("h2", null, `The moves of the player to move, best first (${how})`), table);
        button.remove();
      } catch (error) {
        button.disabled = false;
        button.textContent = "analyse this position";
        box.append(el("p", "error", String(error.message || error)));
      }
    });
    box.append(button, " ", download);
  }

  // What the mover's bot printed while choosing this move, as the arena's editor shows it per move.
  function renderLog(step) {
    const box = $("bot-log");
    if (!box) return;
    box.replaceChildren();
    box.hidden = !step.Log;
    if (box.hidden) return;
    box.append(el("h2", null, `${step.Player || "The bot"}'s log for this move`));
    box.append(el("pre", "bot-log-text", step.Log));
  }

  function renderSuggestions(step, data) {
    const box = $("suggestions");
    box.replaceChildren();
    const suggestions = Array.isArray(step.Suggestions) ? step.Suggestions : [];
    box.hidden = suggestions.length === 0;
    if (box.hidden) return;
    box.append(el("h2", null, "Suggested moves"));
    const table = el("table", "suggestion-table");
    const played = JSON.stringify(step.Move);
    for (const suggestion of suggestions) {
      const row = el("tr", JSON.stringify(suggestion.Move) === played ? "played" : "");
      const value = typeof suggestion.Value === "number" ? suggestion.Value.toFixed(2) : suggestion.Value ?? "";
      // A value not marked exact by its recorder is not known to be exact: it says estimate. A value decided on
      // an uncertain belief is an expectation over it, and says so (only those: an exact value is not one).
      const exact = suggestion.Exact === true;
      const kind = (exact ? "exact" : "estimate") + (suggestion.Expected === true ? `, ${EXPECTED}` : "");
      row.append(
        el("td", null, describeMove(suggestion.Move, step.Player, data.Players[1 - step.Mover])),
        el("td", "num", value),
        el("td", exact ? "value-kind" : "value-kind estimate", kind),
        el("td", null, suggestion.Label || ""),
      );
      table.append(row);
    }
    box.append(table);
    renderBeliefs(box, step, suggestions);
  }

  // The phrase every place uses for values decided on an uncertain belief (rummy.belief.EXPECTED).
  const EXPECTED = "expected over the belief";

  // What the mover's bot believed of the cards it was not sure of when it chose (recorded with its
  // suggestions as "Beliefs": [{"Cards", "What", "Belief": "<landmark> 0.62 / <another> 0.31"}]).
  function renderBeliefs(box, step, suggestions) {
    if (!suggestions.some((suggestion) => suggestion.Expected === true)) return;
    const beliefs = (suggestions.find((suggestion) => Array.isArray(suggestion.Beliefs)) || {}).Beliefs || [];
    const who = step.Player || "The bot";
    const text = beliefs.length
      ? `Values are ${EXPECTED}: ${who} was not sure of these cards' landmarks.`
      : `Values are ${EXPECTED}.`;
    box.append(el("p", "belief-note", text));
    if (!beliefs.length) return;
    const list = el("ul", "beliefs");
    for (const item of beliefs) list.append(el("li", null, `${item.What}: ${item.Belief}`));
    box.append(list);
  }

  function stepBy(delta) {
    if (game && game.mode === "steps") goTo(game.index + delta);
  }

  // --- wiring ----------------------------------------------------------------------------------

  $("first").addEventListener("click", () => goTo(0));
  $("prev").addEventListener("click", () => stepBy(-1));
  $("next").addEventListener("click", () => stepBy(1));
  $("last").addEventListener("click", () => game && game.data && goTo(game.data.Steps.length - 1));

  document.addEventListener("keydown", (event) => {
    if (!game || game.mode !== "steps" || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => stepBy(-1),
      ArrowRight: () => stepBy(1),
      Home: () => goTo(0),
      End: () => goTo(game.data.Steps.length - 1),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });

  window.addEventListener("hashchange", route);
  route();
})();
