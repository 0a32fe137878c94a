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
  async function drawBoard(container, snapshot) {
    const target = snapshot.state.rules.target;
    if (snapshot.layout !== boardLayout || target !== boardTarget || !container.querySelector("svg")) {
      boardLayout = snapshot.layout;
      boardTarget = target;
      const response = await fetch("/api/board.svg");
      container.innerHTML = await response.text();
    }
    const frame = snapshot.frame;
    for (let led = 0; led < frame.length; led++) {
      const hole = document.getElementById(`led-${led}`);
      if (!hole) continue;
      if (frame[led]) {
        hole.style.fill = frame[led];
        hole.setAttribute("r", "3.4");
        hole.classList.add("peg");
      } else {
        hole.style.fill = "";
        hole.setAttribute("r", "2");
        hole.classList.remove("peg");
      }
    }
    playEffects(snapshot.effects || []);
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

  return { el, cardFace, cardBack, connect, post, token, setToken, drawBoard, scoreLine, recentEvents, eventItem, SUITS };
})();
