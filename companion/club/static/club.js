// The club scoreboard: one WebSocket, the whole night in each message, drawn again each time.
"use strict";

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
  const game = t.state || { sides: [], events: [], winner: null, phase: "", prompt: "" };  // none heard yet
  const card = el("article", { class: "club-table" + (t.online === false ? " offline" : "")
    + (t.wrong_players ? " wrong" : "") });
  const status = t.online === false ? _("offline") : PHASES[game.phase] || game.phase;
  const title = t.seat ? fmt(_("Table {table} · {board}"), { table: t.seat.table, board: t.board })
    : fmt(_("Table {board}"), { board: t.board });
  card.append(el("h2", {}, el("span", {}, title), el("span", { class: "dot" }, status)));
  if (t.uncounted) {
    card.classList.add("wrong");
    card.append(el("div", { class: "flag" }, t.uncounted === "unfollowed"
      ? _("Not counted: this result does not follow from the board's inputs")
      : _("Not counted yet: waiting for the director")));
  }
  if (t.wrong_players) {
    card.append(el("div", { class: "flag" },
      fmt(_("Wrong players: seated {first} against {second}"), { first: t.seat.players[0], second: t.seat.players[1] })));
  }
  game.sides.forEach((side, i) => {
    const row = el("div", { class: "side-row" + (game.winner === i ? " winner" : "") },
      el("span", { class: "name" }, side.name), el("span", { class: "score" }, String(side.score)));
    card.append(row);
  });
  const mini = el("div", { class: "mini" });
  card.append(mini);
  miniBoard(mini, t.mini, fmt(_("The board of table {board}: {scores}"), { board: t.board,
    scores: game.sides.map((side) => `${side.name} ${side.score}`).join(", ") }));
  const last = game.events[game.events.length - 1];
  const said = last && game.sides[last.side] ? `${game.sides[last.side].name}: ${last.said}` : "";
  card.append(el("div", { class: "club-said" }, said), el("div", { class: "club-prompt" }, game.prompt));
  return card;
}

const num = n => el("td", { class: "num" }, String(n));
const signed = n => (n > 0 ? "+" : "") + n;

function drawStandings(night) {
  const acc = night.scoring.name === "acc";
  document.getElementById("points-head").textContent = acc ? _("Pts") : _("MP");
  document.getElementById("points-head").title = acc ? _("ACC game points: a win 2, a skunk win 3") : _("match points");
  document.querySelector("#standings tbody").replaceChildren(...night.standings.map(s => {
    const name = el("a", { href: `?card=${encodeURIComponent(s.player)}`, class: "player" }, s.player);
    name.addEventListener("click", e => { e.preventDefault(); showCard(s.player); });
    return el("tr", {}, num(s.rank), el("td", { class: "name" }, name), num(s.points), num(s.wins), num(s.games),
              num(signed(s.spread)), num(s.skunks));
  }));
}

function drawRound(round, tables) {
  if (!round) return;
  const flagged = new Set(tables.filter(t => t.wrong_players).map(t => t.board));
  const playoffs = round.stage === "playoffs";
  document.getElementById("round-title").textContent = playoffs ? _("Playoff seats")
    : fmt(_("Round {round}"), { round: round.round });
  const none = round.tables.length || round.byes.length ? []
    : [el("li", { class: "quiet" }, playoffs ? _("No match waits for a board.") : _("No game this round."))];
  document.getElementById("pairings").replaceChildren(
    ...round.tables.map(p => el("li", { class: flagged.has(p.board) ? "wrong" : "" },
      fmt(_("Table {table} ({board}): {first} against {second}"), { table: p.table, board: p.board, first: p.players[0], second: p.players[1] })
      + (flagged.has(p.board) ? " — " + _("board reports other players") : ""))),
    ...round.byes.map(p => el("li", { class: "quiet" }, fmt(_("{player}: a bye"), { player: p }))), ...none);
}

function drawBracket(bracket) {
  const holder = document.getElementById("bracket");
  if (!bracket) { holder.hidden = true; return; }
  holder.hidden = false;
  document.getElementById("bracket-title").textContent = fmt(_("Playoffs · best of {games}"), { games: bracket.best_of });
  const count = bracket.rounds.length;
  const title = i => i === count - 1 ? _("Final") : i === count - 2 ? _("Semi-finals") : fmt(_("Round {round}"), { round: i + 1 });
  document.getElementById("bracket-rounds").replaceChildren(...bracket.rounds.map((matches, i) =>
    el("div", { class: "bracket-round" }, el("h3", {}, title(i)), ...matches.map(m => {
      const bye = i === 0 && m.players[1] === null && m.winner;
      return el("div", { class: "match" }, ...[0, 1].map(k => {
        const player = m.players[k];
        const seed = m.seeds[k] ? `${m.seeds[k]} ` : "";
        const text = player ? `${seed}${player}` : bye ? _("bye") : _("to come");
        return el("div", { class: "entrant" + (player && m.winner === player ? " won" : "") + (player ? "" : " quiet") },
          el("span", {}, text), el("span", { class: "wins" }, player && !bye ? String(m.wins[k]) : ""));
      }));
    }))));
}

async function showCard(player) {
  const response = await fetch(`/api/scorecard?player=${encodeURIComponent(player)}`);
  if (!response.ok) return;
  const card = await response.json();
  history.replaceState(null, "", `?card=${encodeURIComponent(player)}`);
  const holder = document.getElementById("card");
  holder.hidden = false;
  document.getElementById("card-title").textContent = fmt(_("Scorecard: {player}"), { player: card.player });
  document.querySelector("#card-lines tbody").replaceChildren(...card.lines.map(l =>
    el("tr", {}, num(l.round ?? ""), el("td", { class: "name" }, l.opponent === null ? _("bye") : l.opponent),
       el("td", { class: l.won ? "won" : "" }, l.won ? _("won") : _("lost")),
       num(l.opponent === null ? "" : `${l.score}–${l.against}`), num(l.points), num(signed(l.spread)),
       num(l.total), num(signed(l.total_spread)))));
}

function drawBroker(night) {
  document.getElementById("anonymous").hidden = night.broker.anonymous !== true;
  const link = document.getElementById("waiting-link");
  link.textContent = night.waiting ? fmt(_("Director: {count} waiting"), { count: night.waiting }) : _("Director");
  link.className = night.waiting ? "waiting-link" : "";
}

let current = null;
function draw(night) {
  drawBroker(night);
  document.getElementById("tables").replaceChildren(...night.tables.map(drawTable));
  drawStandings(night);
  drawRound(night.pairings, night.tables);
  drawBracket(night.bracket);
  current = new URLSearchParams(location.search).get("card");
  if (current) showCard(current);
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
