// The club scoreboard: one WebSocket, the whole night in each message, drawn again each time.
"use strict";
// The page's words: the server hands a German (or other) page its catalog as window.WORDS.
const _ = (words) => (window.WORDS || {})[words] || words;
const fmt = (words, values) => words.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
};

// Where a table's game stands, in the page's language.
const PHASES = { new: _("new game"), cut: _("cutting for deal"), deal: _("laying away"), play: _("the play"),
  crib: _("filling the crib"), claim: _("counting"), "game over": _("game over"), "match over": _("match over") };

// A mini board: the board page's own drawing of the table's board (fetched once a board), its holes lit
// as the table's strip lights them.
const drawings = {};
async function drawing(name) {
  drawings[name] ??= fetch(`/boards/${name}.svg`).then(r => r.text());
  return drawings[name];
}

async function miniBoard(holder, board, words) {
  if (!board) return;
  holder.innerHTML = await drawing(board.layout);
  const svg = holder.querySelector("svg");
  if (svg) svg.setAttribute("aria-label", words);
  for (const [led, colour] of Object.entries(board.lit)) {
    const hole = holder.querySelector(`[id="led-${led}"]`);
    if (hole) { hole.classList.add("peg"); hole.setAttribute("r", "3.4"); hole.style.fill = colour; }
  }
}

function drawTable(t) {
  const card = el("article", { class: "club-table" + (t.online === false ? " offline" : "") });
  const status = t.online === false ? _("offline") : PHASES[t.phase] || t.phase || "";
  card.append(el("h2", {}, el("span", {}, fmt(_("Table {board}"), { board: t.board })), el("span", { class: "dot" }, status)));
  (t.sides || []).forEach((side, i) => {
    const row = el("div", { class: "side-row" + (t.winner === i ? " winner" : "") },
      el("span", { class: "name" }, side.name), el("span", { class: "score" }, String(side.score)));
    card.append(row);
  });
  const mini = el("div", { class: "mini" });
  card.append(mini);
  miniBoard(mini, t.mini, fmt(_("The board of table {board}: {scores}"), { board: t.board,
    scores: (t.sides || []).map((side) => `${side.name} ${side.score}`).join(", ") }));
  const last = (t.events || [])[(t.events || []).length - 1];
  const said = last && t.sides[last.side] ? `${t.sides[last.side].name}: ${last.said}` : "";
  card.append(el("div", { class: "club-said" }, said), el("div", { class: "club-prompt" }, t.prompt || ""));
  return card;
}

function draw(night) {
  document.getElementById("tables").replaceChildren(...night.tables.map(drawTable));
  document.querySelector("#standings tbody").replaceChildren(...night.standings.map(s =>
    el("tr", {}, el("td", {}, s.player), el("td", {}, String(s.match_points)), el("td", {}, String(s.wins)),
       el("td", {}, String(s.games)), el("td", {}, String(s.skunks)))));
  if (night.pairings) {
    document.getElementById("round-title").textContent = fmt(_("Round {round}"), { round: night.pairings.round });
    document.getElementById("pairings").replaceChildren(...night.pairings.tables.map(p =>
      el("li", {}, fmt(_("Table {board}: {first} v {second}"), { board: p.board, first: p.players[0], second: p.players[1] }))));
  }
}

function connect(wait = 500) {
  const link = document.getElementById("link");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { link.textContent = _("live"); wait = 500; };
  socket.onmessage = event => draw(JSON.parse(event.data));
  socket.onclose = () => {
    link.textContent = _("reconnecting…");
    setTimeout(() => connect(Math.min(wait * 2, 10000)), wait);
  };
}
connect();
