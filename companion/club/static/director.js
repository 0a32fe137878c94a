// The director's page: every game waiting for a decision, the tie at the qualifying line, and a card entered
// by hand. Read from /api/waiting each time the scoreboard's socket says the night changed; what changes the
// night is posted with the director's token (kept for this tab only).
"use strict";

const tokenField = document.getElementById("token");
tokenField.value = sessionStorage.getItem("director-token") || "";
tokenField.addEventListener("change", () => sessionStorage.setItem("director-token", tokenField.value.trim()));

async function post(path, body) {
  const response = await fetch(path, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokenField.value.trim()}` } });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) return { ok: true, answer };
  // The scoreboard says why in this page's language (its words made from the refusal's code and facts).
  return { ok: false, refusal: answer.refusal, text: answer.message || response.statusText };
}

// Where the keyboard goes after a refusal, by its code: the token field when the token is wanted.
const refocus = (result, fallback) => (result.refusal === "token" ? tokenField : fallback)?.focus();

const score = item => item.names.map((name, i) => `${name} ${item.scores[i]}`).join(", ");
const cardWords = c => fmt(_("{player}'s card: {player} {score}, {opponent} {against}"), c);

// What the director reads for each reason a game waits.
// A value the board claimed or the inputs gave, as the director reads it.
const SKUNKS = { skunk: _("a skunk"), "double skunk": _("a double skunk") };
function claimed(what, value, item) {
  if (what === "skunk") return SKUNKS[value] || _("no skunk");
  if (what === "winner") return value === null ? _("no winner") : fmt(_("{side} winning"), { side: item.names[value] ?? value });
  if (Array.isArray(value)) return value.join("–");
  return String(value);
}
const PROBLEMS = {
  missing: d => fmt(_("the scoreboard has {have} of the {need} inputs that lead to it"), d),
  refused: d => fmt(_("the rules refuse its input {seq}"), d),
  not_over: d => fmt(_("its inputs leave the game unfinished at {scores}"), { scores: d.scores.join("–") }),
  differs: (d, item) => fmt(_("its inputs give {replayed} where the board says {claimed}"),
    { replayed: claimed(d.what, d.replayed, item), claimed: claimed(d.what, d.claimed, item) }),
};

function describe(item) {
  const where = item.board === "hand" ? fmt(_("Round {round}, entered by hand"), { round: item.round })
    : item.round ? fmt(_("Board {board}, round {round}"), item) : fmt(_("Board {board}"), item);
  const d = item.detail;
  switch (item.reason) {
    case "stranger":
      return [fmt(_("A stranger's game: {where}"), { where }),
        fmt(_("{game}, but seated there: {seated}."), { game: score(item),
          seated: d.seated ? fmt(_("{first} against {second}"), { first: d.seated[0], second: d.seated[1] })
            : _("nobody") }),
        _("It counts only if you approve it.")];
    case "unfollowed":
      if (d.code === "missing") {  // inputs still on their way, or never sent: it counts only once they follow
        return [fmt(_("A result still missing its inputs: {where}"), { where }),
          fmt(_("The board says {game}; {problem}."), { game: score(item), problem: PROBLEMS.missing(d) }),
          _("It counts only once they all arrive and follow the rules; a forged result never does.")];
      }
      return [fmt(_("A result that does not follow the rules: {where}"), { where }),
        fmt(_("The board says {game}; {problem}."), { game: score(item),
          problem: (PROBLEMS[d.code] || (() => d.code))(d, item) }),
        _("It never counts; reject it to clear it from this list.")];
    case "disagreement":
      return [fmt(_("Cards that differ: {where}"), { where }), ...d.cards.map(cardWords),
        d.was === "counts" ? _("It counted until a card changed; it is out of the standings until both agree.")
          : _("It does not count until both cards agree or you choose one.")];
    case "late":
      return [fmt(_("A late card: {where}"), { where }), score(item),
        _("Entered after the playoff draw: approved, it counts in the standings but never moves the bracket.")];
  }
  return [where, score(item)];
}

async function decide(item, approve, card, button) {
  const answer = document.getElementById("decided");
  const result = await post("/api/decide", { id: item.id, approve, card });
  answer.className = "answer" + (result.ok ? "" : " refused");
  answer.textContent = result.ok ? (approve ? _("Approved: it counts.") : _("Rejected: it does not count."))
    : result.text;
  if (!result.ok) refocus(result, button);
  refresh();
}

function drawItem(item) {
  const [title, ...lines] = describe(item);
  const buttons = [];
  const button = (words, approve, card, cls = "") => {
    const b = el("button", { type: "button", class: cls }, words);
    b.addEventListener("click", () => decide(item, approve, card, b));
    buttons.push(b);
  };
  if (item.reason === "disagreement") {
    for (const card of item.detail.cards) button(fmt(_("Count {player}'s card"), card), true, card.player);
  } else if (item.approvable) {
    button(_("Approve: it counts"), true, null);
  }
  button(_("Reject: it does not count"), false, null, "reject");
  return el("article", { class: "waiting-item", "aria-label": title }, el("h3", {}, title),
    ...lines.map(line => el("p", {}, line)), el("div", { class: "actions" }, ...buttons));
}

const PARTED = { lot: _("by lot"), "head-to-head": _("head-to-head") };

function drawTie(tie, drawn) {
  const holder = document.getElementById("tie");
  if (!tie) { holder.textContent = _("No tie at the qualifying line."); return; }
  const players = tie.players.join(", ");
  if (drawn && tie.order) {
    const parted = tie.order.map((p, i) => fmt(_("{player} ({how})"), { player: p, how: PARTED[tie.by[i]] }));
    holder.textContent = fmt(_("{players} were tied for {places} place(s) at the line; the night's rule parted them, head-to-head then by lot: {parted}. Through: {through}."),
      { players, places: tie.places, parted: parted.join(", "), through: tie.order.slice(0, tie.places).join(", ") });
  } else {
    holder.textContent = fmt(_("{players} are tied for {places} place(s) at the line. The draw parts them by the night's rule: head-to-head (wins between them), then by lot."),
      { players, places: tie.places });
  }
}

async function refresh() {
  const response = await fetch("/api/waiting");
  if (!response.ok) return;
  const view = await response.json();
  document.getElementById("anonymous").hidden = view.broker.anonymous !== true;
  const holder = document.getElementById("waiting");
  holder.replaceChildren(...(view.waiting.length ? view.waiting.map(drawItem)
    : [el("p", { class: "quiet" }, _("Nothing waits."))]));
  drawTie(view.tie, view.drawn);
  document.getElementById("field").replaceChildren(...view.field.map(p => el("option", { value: p })));
}

document.getElementById("enter").addEventListener("submit", async event => {
  event.preventDefault();
  const form = new FormData(event.target);
  const card = { round: Number(form.get("round")), player: form.get("player").trim(),
    opponent: form.get("opponent").trim(), score: Number(form.get("score")), against: Number(form.get("against")) };
  const result = await post("/api/enter", card);
  const answer = document.getElementById("answer");
  answer.className = "answer" + (result.ok && result.answer.status !== "disagreement" ? "" : " refused");
  const said = { first: _("The card is in; it counts when the opponent's card agrees."),
    counts: _("Both cards agree: the game counts."),
    late: _("Entered after the playoff draw: it waits for your approval."),
    disagreement: _("The cards differ: the game does not count and waits above.") };
  answer.textContent = result.ok ? said[result.answer.status] || result.answer.message : result.text;
  if (!result.ok) refocus(result, null);
  refresh();
});

function connect(wait = 500) {
  const link = document.getElementById("link");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { link.textContent = _("live"); wait = 500; };
  socket.onmessage = () => refresh();
  socket.onclose = () => {
    link.textContent = _("reconnecting…");
    setTimeout(() => connect(Math.min(wait * 2, 10000)), wait);
  };
}
connect();
