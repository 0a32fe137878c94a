// Cribbage Companion pages: the live connection, the controls and the drawings they share. No build step.
"use strict";
// The page's words: the server hands a German (or other) page its catalog as window.WORDS.
function _(words) { return (window.WORDS || {})[words] || words; }
function fmt(words, values) { return words.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all); }

const Crib = (() => {
  const TOKEN_KEY = "crib-token";
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  let boardLayout = "";
  let boardTarget = 0;

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child.nodeType ? child : document.createTextNode(child));
    }
    return node;
  }

  function cardFace(card, attrs = {}) {
    const red = card.suit === "H" || card.suit === "D";
    const rank = card.code.slice(0, -1);
    return el("span", { class: "card" + (red ? " red" : ""), "data-card": card.code, ...attrs },
      el("span", { class: "rank" }, rank), el("span", { class: "suit" }, SUITS[card.suit]));
  }

  function cardBack() { return el("span", { class: "card back" }, ""); }

  // --- the live connection: a snapshot on every change; reconnects by itself after a restart ---------------
  function connect(onSnapshot, onStatus) {
    let socket;
    let wait = 250;
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/ws`);
      socket.onopen = () => { wait = 250; onStatus && onStatus(true); };
      socket.onmessage = (event) => {
        const data = JSON.parse(event.data);
        if (data.state) onSnapshot(data);
      };
      socket.onclose = () => {
        onStatus && onStatus(false);
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 2000);
      };
    }
    open();
  }

  // --- controls: JSON, with the control token in a header when the board needs one -------------------------
  function token() { return localStorage.getItem(TOKEN_KEY) || ""; }
  function setToken(value) { localStorage.setItem(TOKEN_KEY, value.trim()); }

  async function post(path, body) {
    const headers = { "Content-Type": "application/json" };
    if (token()) headers["X-Crib-Token"] = token();
    const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    let data = {};
    try { data = await response.json(); } catch (error) { data = {}; }
    if (!response.ok) throw new Error(data.error || `the board answered ${response.status}`);
    return data;
  }

  // --- the board: the SVG once per layout, then each frame recolours its holes ----------------------------
  // A back peg shines at a quarter of its side's colour (view/pegs.py dim): drawn as a ring in the side's colour
  // so it is not taken for an empty hole.
  const dim = (hex) => [1, 3, 5].map((i) => { const v = parseInt(hex.slice(i, i + 2), 16); return v ? Math.max(1, v >> 2) : 0; });
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const same = (a, b) => a.every((v, i) => v === b[i]);
  const ZOOM_BELOW = 600; // px: a narrower board shows the street in play, large enough to read
  const ZOOM_MM = 210; // the length of board shown then

  async function drawBoard(container, snapshot) {
    const target = snapshot.state.rules.target;
    if (snapshot.layout !== boardLayout || target !== boardTarget || !container.querySelector("svg")) {
      boardLayout = snapshot.layout;
      boardTarget = target;
      const response = await fetch("/api/board.svg");
      container.innerHTML = await response.text();
    }
    const svg = container.querySelector("svg");
    const colours = snapshot.colours.map(rgb);
    const backs = snapshot.colours.map(dim);
    const fronts = [];
    const frame = snapshot.frame;
    for (let led = 0; led < frame.length; led++) {
      const hole = document.getElementById(`led-${led}`);
      if (!hole) continue;
      hole.classList.remove("peg", "back");
      hole.style.stroke = "";
      if (frame[led]) {
        const lit = rgb(frame[led]);
        const side = backs.findIndex((b) => same(b, lit));
        hole.style.fill = frame[led];
        hole.setAttribute("r", "3.4");
        hole.classList.add("peg");
        if (side >= 0) { hole.classList.add("back"); hole.style.stroke = snapshot.colours[side]; }
        const front = colours.findIndex((c) => same(c, lit));
        if (front >= 0) fronts[front] = hole;
      } else {
        hole.style.fill = "";
        hole.setAttribute("r", "2");
      }
    }
    zoom(container, svg, snapshot, fronts);
    svg.setAttribute("aria-label", boardWords(snapshot));
    playEffects(snapshot.effects || []);
  }

  // On a phone the board is shown from the street of the side that scored last (else the first side).
  function zoom(container, svg, snapshot, fronts) {
    if (!svg.dataset.whole) svg.dataset.whole = svg.getAttribute("viewBox");
    const [, , width, height] = svg.dataset.whole.split(" ").map(Number);
    const narrow = container.clientWidth > 0 && container.clientWidth < ZOOM_BELOW && width > ZOOM_MM;
    svg.classList.toggle("zoomed", narrow);
    if (!narrow) { svg.setAttribute("viewBox", svg.dataset.whole); return; }
    const events = snapshot.state.events;
    const last = events.length ? events[events.length - 1].side : 0;
    const peg = fronts[last] || fronts.find(Boolean);
    const x = peg ? Number(peg.getAttribute("cx")) : 0;
    const left = Math.max(0, Math.min(width - ZOOM_MM, x - ZOOM_MM / 2));
    svg.setAttribute("viewBox", `${left.toFixed(1)} 0 ${ZOOM_MM} ${height}`);
  }

  // The board in words, for a screen reader: each side's pegs.
  function boardWords(snapshot) {
    return _("The board") + ": " + snapshot.state.sides.map((side) => fmt(_("{side}: front peg {score}, back peg {back}"),
      { side: side.name, score: side.score, back: side.back_peg })).join("; ");
  }

  function playEffects(effects) {
    for (const effect of effects) {
      const holes = effect.leds.map((led) => document.getElementById(`led-${led}`)).filter(Boolean);
      const kind = effect.kind;
      holes.forEach((hole, i) => {
        const delay = kind === "walk" ? i * 60 : 0;
        setTimeout(() => {
          hole.style.setProperty("--glow", effect.colour);
          hole.classList.add(kind);
          setTimeout(() => hole.classList.remove(kind), kind === "celebrate" ? 4000 : 900);
        }, delay);
      });
    }
  }

  function scoreLine(snapshot, side, i) {
    const state = snapshot.state;
    return el("span", { class: "side" },
      el("span", { class: "dot", style: `background:${snapshot.colours[i]}` }),
      `${side.name} `, el("b", {}, String(side.score)),
      state.rules.match_target ? " " + fmt(_("(match {points} of {target})"), { points: side.match_points, target: state.rules.match_target }) : "",
      state.dealer && side.players.includes(state.dealer) ? el("span", { class: "tag" }, _("deals")) : null);
  }

  // The scores said in this deal, or in the last one until this one scores; and their heading.
  function recentEvents(state) {
    const now = state.events.filter((e) => e.deal === state.deal);
    return now.length ? [now, false] : [state.events.filter((e) => e.deal === state.deal - 1), true];
  }

  // A score as the page lists it: its name and points, who made it (when the name does not say), the words.
  function eventItem(e) {
    const named = e.kind === "hand" || e.kind === "crib" || !e.player;
    return el("li", {}, el("b", {}, `${e.name}: ${e.points}`), named ? " " : ` ${e.player} · `,
      el("span", { class: "words" }, e.said || ""),
      e.claimed !== null && e.claimed !== undefined ? el("span", { class: "tag" }, fmt(_("claimed {points}"), { points: e.claimed })) : null);
  }

  // What a screen reader hears (an aria-live region): each new score with the side's total, and the count.
  let heard = null;
  function announce(region, snapshot) {
    const state = snapshot.state;
    const said = [];
    if (heard !== null) {
      for (const e of state.events.slice(heard.events)) {
        const side = state.sides[e.side];
        said.push(fmt(_("{name} {points}: {side} has {score}"), { name: e.name, points: e.points, side: side ? side.name : "", score: side ? side.score : "" }));
      }
      if (state.phase === "play" && (state.count !== heard.count || said.length)) said.push(fmt(_("count {count}"), { count: state.count }));
    }
    heard = { events: state.events.length, count: state.count };
    if (said.length) region.textContent = said.join(". ");
  }

  // Numbers and days as the page's language writes them.
  const lang = () => document.documentElement.lang || "en";
  function num(value, digits = 0) {
    if (value === null || value === undefined) return "–";
    return new Intl.NumberFormat(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  }
  function day(iso) {
    return iso ? new Intl.DateTimeFormat(lang(), { day: "numeric", month: "short", year: "numeric" }).format(new Date(`${iso}T12:00`)) : "";
  }
  // A game as a player knows it: the day, the players (a computer player with its level).
  function gameName(played, sides, levels = {}) {
    const versus = " " + _("v") + " ";
    const who = sides.map((side) => (levels[side] ? side + " (" + _(levels[side]) + ")" : side)).join(versus);
    return played ? `${day(played)}, ${who}` : who;
  }

  return { el, cardFace, cardBack, connect, post, token, setToken, drawBoard, scoreLine, recentEvents, eventItem, announce,
    num, day, gameName, SUITS };
})();
