// The club scoreboard: one WebSocket, the whole night in each message, drawn again each time.
"use strict";
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
};

// A mini board: each side's front peg along a track to the target, with the skunk line.
function track(score, target, skunk, index) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "track");
  svg.setAttribute("viewBox", `0 0 ${target} 10`);
  svg.setAttribute("preserveAspectRatio", "none");
  const add = (name, attrs) => { const n = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); svg.append(n); };
  add("rect", { x: 0, y: 3, width: target, height: 4, fill: "#ffffff22" });
  add("rect", { x: 0, y: 3, width: Math.min(score, target), height: 4, fill: `var(--side${index})` });
  add("line", { x1: skunk, x2: skunk, y1: 0, y2: 10, stroke: "#ffffff88", "stroke-width": target / 200 });
  return svg;
}

function drawTable(t) {
  const card = el("article", { class: "table" + (t.online === false ? " offline" : "") });
  const status = t.online === false ? "offline" : t.phase || "";
  card.append(el("h3", {}, el("span", {}, `Table ${t.board}`), el("span", { class: "dot" }, status)));
  (t.sides || []).forEach((side, i) => {
    const row = el("div", { class: "side-row" + (t.winner === side ? " winner" : "") },
      el("span", { class: "name" }, side), el("span", { class: "score" }, String(t.scores[side])));
    card.append(row, track(t.scores[side], t.target, t.skunk_line, i));
  });
  const said = t.said ? `${t.said.side}: ${t.said.words}` : "";
  card.append(el("div", { class: "said" }, said), el("div", { class: "prompt" }, t.prompt || ""));
  return card;
}

function draw(night) {
  document.getElementById("tables").replaceChildren(...night.tables.map(drawTable));
  document.querySelector("#standings tbody").replaceChildren(...night.standings.map(s =>
    el("tr", {}, el("td", {}, s.player), el("td", {}, String(s.match_points)), el("td", {}, String(s.wins)),
       el("td", {}, String(s.games)), el("td", {}, String(s.skunks)))));
  if (night.pairings) {
    document.getElementById("round-title").textContent = `Round ${night.pairings.round}`;
    document.getElementById("pairings").replaceChildren(...night.pairings.tables.map(p =>
      el("li", {}, `Table ${p.board}: ${p.players[0]} v ${p.players[1]}`)));
  }
}

function connect(wait = 500) {
  const link = document.getElementById("link");
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { link.textContent = "live"; wait = 500; };
  socket.onmessage = event => draw(JSON.parse(event.data));
  socket.onclose = () => {
    link.textContent = "reconnecting…";
    setTimeout(() => connect(Math.min(wait * 2, 10000)), wait);
  };
}
connect();
