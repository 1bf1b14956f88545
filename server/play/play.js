// The play page: one person's seat in a referee match, through the /play/api routes.
// Every selection is checked by the server (/check) before a move is sent; the referee only sees moves.
"use strict";

(() => {
  const $ = (selector) => document.querySelector(selector);
  const api = "/play/api";
  const page = {
    token: null,
    state: null,
    version: -1,
    mine: new Set(),
    theirs: new Set(),
    fetchedAt: 0,
    coachVersion: -1,
    reviewShown: false,
    busy: false,
    acts: 0, // buttons pressed: a late selection preview must not hide a button's answer
  };

  // --- small helpers ---------------------------------------------------------------------------

  function showError(text) {
    const box = $("#error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function say(text, tone) {
    const box = $("#message");
    box.textContent = text || "";
    box.className = "message" + (tone ? " " + tone : "");
  }

  async function call(path, options) {
    const response = await fetch(api + path, {
      headers: { "Content-Type": "application/json" },
      ...options,
    });
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = { ErrorMessage: `the server answered ${response.status}` };
    }
    if (!response.ok) {
      const error = new Error((body && body.ErrorMessage) || `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return body;
  }

  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatValue(value, objective) {
    if (value === null || value === undefined) return "?";
    if (objective === "margin") return (value >= 0 ? "+" : "") + value.toFixed(1);
    return Math.round(value * 100) + "%";
  }

  function formatLoss(value, objective) {
    return objective === "margin" ? value.toFixed(1) : (value * 100).toFixed(1) + "%";
  }

  // --- setup -----------------------------------------------------------------------------------

  async function loadOptions() {
    const options = await call("/options");
    const opponents = $("#opponent");
    for (const opponent of options.Opponents) {
      const option = element("option", { value: opponent.Name, title: opponent.Note }, `${opponent.Short} — ${opponent.Note}`);
      if (!opponent.Available) option.disabled = true;
      opponents.append(option);
    }
    const styles = $("#style");
    for (const style of options.Styles) {
      styles.append(element("option", { value: style.GameStyleId }, `${style.Text} (style ${style.GameStyleId})`));
    }
    const coaches = $("#coach-strategy");
    for (const name of options.Coaches) {
      const label = name === "expectimax" ? "expectimax (1 s a position)" : name;
      const option = element("option", { value: name }, label);
      if (name === (options.DefaultCoach || "expectimax")) option.selected = true;
      coaches.append(option);
    }
  }

  async function startGame(event) {
    event.preventDefault();
    showError("");
    $("#start").disabled = true;
    try {
      const state = await call("/games", {
        method: "POST",
        body: JSON.stringify({
          Opponent: $("#opponent").value,
          GameStyleId: Number($("#style").value),
          Name: $("#name").value,
          Coach: { Strategy: $("#coach-strategy").value, Objective: $("#coach-objective").value },
        }),
      });
      page.token = state.Session;
      history.replaceState(null, "", `#game/${state.Session}`);
      enterGame(state);
    } catch (error) {
      showError(error.message);
    } finally {
      $("#start").disabled = false;
    }
  }

  function enterGame(state) {
    $("#setup").hidden = true;
    $("#game").hidden = false;
    render(state);
    pollLoop();
  }

  // --- the board -------------------------------------------------------------------------------

  function cardTile(card, side, index) {
    const selected = side === "mine" ? page.mine : page.theirs;
    const tile = element("button", {
      type: "button",
      class: "card" + (selected.has(card.Id) ? " selected" : ""),
      "data-card-id": card.Id,
      "data-side": side,
      "aria-pressed": selected.has(card.Id) ? "true" : "false",
      title: card.Landmark || `card ${card.Id}`,
    });
    const image = element("img", { src: card.Url, alt: "a landmark card" });
    tile.append(image);
    if (index < 10) tile.append(element("span", { class: "card-key" }, String((index + 1) % 10)));
    tile.append(element("span", { class: "card-name" }, card.Landmark || "?"));
    tile.addEventListener("click", () => toggle(side, card.Id));
    return tile;
  }

  function renderHand(selector, cards, side) {
    const hand = $(selector);
    hand.replaceChildren(...cards.map((card, index) => cardTile(card, side, index)));
  }

  function toggle(side, id) {
    if (!page.state || !page.state.IsMover) {
      say("It is not your turn.", "bad");
      return;
    }
    const selected = side === "mine" ? page.mine : page.theirs;
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    $("#confirm-pass").hidden = true;
    for (const tile of document.querySelectorAll(`.card[data-side="${side}"][data-card-id="${id}"]`)) {
      tile.classList.toggle("selected", selected.has(id));
      tile.setAttribute("aria-pressed", selected.has(id) ? "true" : "false");
    }
    const count = page.mine.size + page.theirs.size;
    say(count ? `${page.mine.size} of your cards and ${page.theirs.size} of theirs selected.` : "");
    if (!page.theirs.size && page.mine.size >= 3 && page.mine.size <= 5) previewLay();
  }

  async function previewLay() {
    // What these cards would score as a Lay, before any button is pressed (nothing is sent).
    const asked = [...page.mine].join(",");
    const acted = page.acts;
    try {
      const verdict = await call(`/games/${page.token}/check`, { method: "POST", body: selection("lay", false) });
      const unchanged = [...page.mine].join(",") === asked && !page.theirs.size && page.acts === acted;
      if (unchanged) say("Lay: " + verdict.Message + ".");
    } catch (_) {
      // a preview only; the button's own check reports problems
    }
  }

  function clearSelection() {
    page.mine.clear();
    page.theirs.clear();
    $("#confirm-pass").hidden = true;
    for (const tile of document.querySelectorAll(".card.selected")) {
      tile.classList.remove("selected");
      tile.setAttribute("aria-pressed", "false");
    }
  }

  function miniCards(cards) {
    const holder = element("span", { class: "mini" });
    for (const card of cards) {
      const image = element("img", { src: card.Url, alt: card.Landmark || "card", title: card.Landmark || "" });
      holder.append(image);
    }
    return holder;
  }

  function markMoved(state) {
    // The card the opponent's last move took or gave, where it is now.
    const last = state.Events[state.Events.length - 1];
    if (!last || last.IsYou || last.Round !== state.Round) return;
    for (const card of last.Cards) {
      for (const tile of document.querySelectorAll(`.card[data-card-id="${card.Id}"]`)) tile.classList.add("moved");
    }
  }

  function renderLastMove(state) {
    const box = $("#last-move");
    box.replaceChildren();
    const events = state.Events;
    if (!events.length) {
      box.textContent = state.IsMover ? "You move first." : `${state.Opponent} moves first.`;
      return;
    }
    // The opponent's moves since your last one (or your own last move when they have not moved yet).
    let start = events.length - 1;
    while (start > 0 && !events[start - 1].IsYou && !events[start].IsYou) start -= 1;
    if (events[events.length - 1].IsYou) start = events.length - 1;
    for (const event of events.slice(start)) {
      const line = element("div", { class: "move-line" + (event.IsYou ? " you" : " theirs") });
      line.append(element("span", { class: "move-text" }, event.Text));
      if (event.Cards.length) line.append(miniCards(event.Cards));
      if (event.RoundEnded) line.append(element("span", { class: "round-end" }, event.RoundEnded.Text));
      box.append(line);
    }
  }

  function renderLog(state) {
    const log = $("#log");
    const items = state.Events.slice().reverse().map((event) => {
      const item = element("li", { class: event.IsYou ? "you" : "theirs", value: event.Step });
      item.textContent = event.Text;
      if (event.RoundEnded) {
        item.append(element("div", { class: "round-end" }, event.RoundEnded.Text));
      }
      return item;
    });
    log.replaceChildren(...items);
  }

  function render(state) {
    const fresh = state.Version !== page.version;
    page.state = state;
    page.version = state.Version;
    page.fetchedAt = performance.now();
    const ids = (cards) => new Set(cards.map((card) => card.Id));
    const myIds = ids(state.MyHand);
    const theirIds = ids(state.OppHand);
    for (const id of [...page.mine]) if (!myIds.has(id)) page.mine.delete(id);
    for (const id of [...page.theirs]) if (!theirIds.has(id)) page.theirs.delete(id);

    $("#round-info").textContent = `Round ${Math.min(state.Round + 1, state.Rounds)} of ${state.Rounds}`;
    $("#turns-left").textContent = `${state.RemainingMoves} turns left`;
    $("#deck-count").textContent = `${state.CardsInDeck} cards in the deck`;
    const turn = $("#turn");
    if (!state.Running) turn.textContent = "Match over";
    else turn.textContent = state.IsMover ? "Your turn" : `${state.Opponent} is thinking…`;
    turn.classList.toggle("yours", state.Running && state.IsMover);
    $("#opp-name").textContent = state.Opponent;
    $("#my-name").textContent = `${state.You} (you)`;
    $("#my-points").textContent = state.Points[0];
    $("#opp-points").textContent = state.Points[1];
    $("#my-rounds").textContent = state.RoundsWon[0];
    $("#opp-rounds").textContent = state.RoundsWon[1];
    if (fresh) {
      renderHand("#opp-hand", state.OppHand, "theirs");
      renderHand("#my-hand", state.MyHand, "mine");
      markMoved(state);
      renderLastMove(state);
      renderLog(state);
    }
    for (const id of ["#lay", "#take", "#give"]) $(id).disabled = !(state.Running && state.IsMover) || page.busy;
    if (fresh && state.Running && state.IsMover) $("#confirm-pass").hidden = true;
    updateClock();
    if ($("#coach-toggle").checked) loadCoach();
    else $("#coach").hidden = true;
    if (!state.Running) showResult(state);
  }

  function updateClock() {
    const state = page.state;
    const clock = $("#clock");
    if (!state || !state.Running || !state.ResponseDeadline) {
      clock.textContent = "";
      return;
    }
    if (state.Style.NoLimit) {
      clock.textContent = state.IsMover ? "no time limit" : "";
      return;
    }
    const elapsed = performance.now() - page.fetchedAt;
    const left = Math.max(0, (state.ResponseDeadline - state.ServerNowMs - elapsed) / 1000);
    const whose = state.IsMover ? "you have" : "they have";
    clock.textContent = `${whose} ${left.toFixed(0)} s`;
    clock.classList.toggle("short", state.IsMover && left < 15);
  }

  // --- moves -----------------------------------------------------------------------------------

  function selection(action, confirm) {
    return JSON.stringify({
      Action: action,
      Mine: [...page.mine],
      Theirs: [...page.theirs],
      ConfirmPass: Boolean(confirm),
    });
  }

  async function act(action, confirm) {
    page.acts += 1;
    if (!page.state || !page.state.Running) return;
    if (!page.state.IsMover) {
      say("It is not your turn: wait for the opponent's move.", "bad");
      return;
    }
    showError("");
    try {
      // Checked first: a selection that is no move is explained and nothing is sent.
      const verdict = await call(`/games/${page.token}/check`, { method: "POST", body: selection(action, confirm) });
      if (verdict.NeedsConfirm) {
        $("#confirm-text").textContent = verdict.Message + ".";
        $("#confirm-pass").hidden = false;
        say("Not sent: confirm the pass, or change your selection.", "bad");
        return;
      }
      if (!verdict.Ok) {
        say("Not a move: " + verdict.Message + ".", "bad");
        return;
      }
      page.busy = true;
      const answer = await call(`/games/${page.token}/move`, { method: "POST", body: selection(action, confirm) });
      page.busy = false;
      $("#confirm-pass").hidden = true;
      if (answer.Sent && answer.Result === "SUCCESS") {
        clearSelection();
        say(answer.Verdict.Message + ".", "good");
      } else {
        say(`The referee answered ${answer.Result || "nothing"}: ${answer.ErrorMessage || answer.Verdict.Message}`, "bad");
      }
      render(answer.State);
    } catch (error) {
      page.busy = false;
      showError(error.message);
    }
  }

  // --- the coach -------------------------------------------------------------------------------

  async function loadCoach() {
    const state = page.state;
    const panel = $("#coach");
    if (!state || !state.Running || !state.IsMover) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    if (page.coachVersion === state.Version) return;
    page.coachVersion = state.Version;
    $("#coach-text").textContent = "The coach is thinking…";
    $("#coach-moves tbody").replaceChildren();
    try {
      const advice = await call(`/games/${page.token}/coach?top=5`);
      if (page.state.Version !== state.Version) return;
      const exact = advice.How || (advice.Exact ? "exact values" : `estimates, searched ${advice.Depth} turn(s) ahead`);
      $("#coach-source").textContent = `${advice.Strategy}, ${advice.Objective} objective, ${exact}`;
      if (advice.ExactHint) $("#coach-source").title = advice.ExactHint;
      $("#coach-text").textContent = advice.Explanation;
      const rows = advice.Moves.map((move, index) => {
        const row = element("tr", { class: "coach-move" + (index === 0 ? " best" : "") });
        row.addEventListener("click", () => selectMove(move.Move));
        row.append(element("td", {}, move.Label));
        row.append(element("td", { class: "num" }, formatValue(move.Value, advice.Objective)));
        return row;
      });
      $("#coach-moves tbody").replaceChildren(...rows);
    } catch (error) {
      $("#coach-text").textContent = "No advice: " + error.message;
    }
  }

  function selectMove(move) {
    clearSelection();
    const [key, value] = Object.entries(move)[0];
    const ids = Array.isArray(value) ? value : [value];
    for (const id of ids) toggle(key === "Take" ? "theirs" : "mine", id);
    say(`Selected for ${key}: press ${key} to play it.`);
  }

  // --- the end ---------------------------------------------------------------------------------

  async function showResult(state) {
    const panel = $("#result");
    panel.hidden = false;
    $("#result-text").textContent = state.Result;
    const rounds = state.Events.filter((event) => event.RoundEnded).map((event) => element("li", {}, event.RoundEnded.Text));
    // The house bot could not choose its moves (it played safe ones): the result is not its play.
    if (state.OpponentNote) rounds.push(element("li", { id: "opponent-note", class: "warning" }, state.OpponentNote));
    $("#round-results").replaceChildren(...rounds);
    $("#viewer-link").href = state.Viewer;
    if (page.reviewShown) return;
    page.reviewShown = true;
    try {
      const review = await call(`/games/${page.token}/review`);
      renderReview(review);
    } catch (error) {
      showError("No review: " + error.message);
    }
  }

  function renderReview(review) {
    $("#review").hidden = false;
    // The review engine's own sentence, the same as `rummy-vision review` and the viewer show for you: per
    // decision and on average (never a sum of win probabilities).
    $("#review-summary").textContent =
      `${review.Summary} (values: ${review.Strategy})` +
      (review.Exact ? " (exact)." : ` (estimates). ${review.ExactHint || ""}`);
    const worst = review.Worst.map((entry) => {
      const item = element("li", { class: "worst" });
      const link = element("a", { href: entry.Viewer }, `step ${entry.Step}`);
      item.append(link);
      item.append(document.createTextNode(
        `: you played ${entry.Played}; ${entry.Best} was better by ${formatLoss(entry.Lost, review.Objective)}`,
      ));
      return item;
    });
    if (!worst.length) worst.push(element("li", {}, "None: every move you made was the coach's best."));
    $("#worst").replaceChildren(...worst);
    const rows = review.Moves.map((entry) => {
      const row = element("tr", { class: entry.Lost > 0 ? "lost" : "best-move", "data-step": entry.Step });
      const step = element("td");
      step.append(element("a", { href: entry.Viewer }, String(entry.Step)));
      row.append(step);
      row.append(element("td", {}, `${entry.Round + 1} / ${entry.Turn}`));
      row.append(element("td", {}, entry.Played));
      row.append(element("td", { class: "num played-value" }, formatValue(entry.PlayedValue, review.Objective)));
      row.append(element("td", {}, entry.Best));
      row.append(element("td", { class: "num best-value" }, formatValue(entry.BestValue, review.Objective)));
      row.append(element("td", { class: "num lost" }, formatLoss(entry.Lost, review.Objective)));
      return row;
    });
    $("#review-moves tbody").replaceChildren(...rows);
  }

  // --- the loop and the keys -------------------------------------------------------------------

  async function pollLoop() {
    while (page.token && page.state && page.state.Running) {
      try {
        const state = await call(`/games/${page.token}?since=${page.version}&wait=8000`);
        if (state.Version !== page.version) render(state);
      } catch (error) {
        showError(error.message);
        if (error.status === 404) return;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  function onKey(event) {
    if ($("#game").hidden || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const digit = /^Digit(\d)$/.exec(event.code);
    if (digit && page.state) {
      const index = (Number(digit[1]) + 9) % 10;
      const hand = event.shiftKey ? page.state.OppHand : page.state.MyHand;
      if (hand[index]) toggle(event.shiftKey ? "theirs" : "mine", hand[index].Id);
      event.preventDefault();
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "l") act("lay");
    else if (key === "t") act("take");
    else if (key === "g") act("give");
    else if (key === "escape") { clearSelection(); say(""); }
    else if (key === "c") { $("#coach-toggle").click(); }
    else if (key === "n") { $("#names-toggle").click(); }
    else if (key === "y" && !$("#confirm-pass").hidden) act("lay", true);
    else return;
    event.preventDefault();
  }

  async function resume() {
    const match = /^#game\/([\w-]+)$/.exec(location.hash);
    if (!match) return false;
    try {
      const state = await call(`/games/${match[1]}`);
      page.token = match[1];
      enterGame(state);
      return true;
    } catch (_) {
      history.replaceState(null, "", "/play");
      return false;
    }
  }

  function init() {
    $("#setup-form").addEventListener("submit", startGame);
    $("#lay").addEventListener("click", () => act("lay"));
    $("#take").addEventListener("click", () => act("take"));
    $("#give").addEventListener("click", () => act("give"));
    $("#clear").addEventListener("click", () => { clearSelection(); say(""); });
    $("#pass-yes").addEventListener("click", () => act("lay", true));
    $("#pass-no").addEventListener("click", () => { $("#confirm-pass").hidden = true; say(""); });
    $("#names-toggle").addEventListener("change", (event) => {
      document.body.classList.toggle("show-names", event.target.checked);
    });
    $("#coach-toggle").addEventListener("change", () => loadCoach());
    document.addEventListener("keydown", onKey);
    setInterval(updateClock, 250);
    loadOptions().then(resume).catch((error) => showError(error.message));
  }

  init();
})();
