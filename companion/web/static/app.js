// Cribbage Companion pages: the live connection, the controls and the drawings they share. No build step.
"use strict";
// The page's words: the server hands a German (or other) page its catalog as window.WORDS.
function _(words) { return (window.WORDS || {})[words] || words; }
function N_(words) { return words; }  // marked for the catalog, translated where said
function fmt(words, values) { return words.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all); }
// A message with a plural: the catalog's form for `n` (window.PLURALS; English and German: one, other).
function ngettext(singular, plural, n) {
  const forms = (window.PLURALS || {})[singular];
  return forms ? forms[n === 1 ? 0 : 1] : n === 1 ? singular : plural;
}

// The page's language, chosen here: remembered in a cookie the server reads (else the browser's language).
document.addEventListener("DOMContentLoaded", () => {
  const choice = document.getElementById("lang");
  if (!choice) return;
  choice.value = document.documentElement.lang || "en";
  choice.addEventListener("change", () => {
    document.cookie = `crib-lang=${choice.value}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  });
});

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

  // A card as it shows ("K♣") and is named: its accessible name starts with what it shows ("K♣, king of clubs").
  function cardFace(card, attrs = {}) {
    const red = card.suit === "H" || card.suit === "D";
    const rank = card.code.slice(0, -1);
    return el("span", { class: "card" + (red ? " red" : ""), "data-card": card.code, role: "img", "aria-label": cardName(card), ...attrs },
      el("span", { class: "rank", "aria-hidden": "true" }, rank), el("span", { class: "suit", "aria-hidden": "true" }, SUITS[card.suit]));
  }

  const RANK_NAMES = { A: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"), 8: N_("eight"), 9: N_("nine"),
    10: N_("ten"), J: N_("jack"), Q: N_("queen"), K: N_("king") };
  const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };
  function cardName(card) {
    const rank = card.code.slice(0, -1);
    return `${rank}${SUITS[card.suit]}, ` + fmt(_("{rank} of {suit}"), { rank: _(RANK_NAMES[rank]), suit: _(SUIT_NAMES[card.suit]) });
  }

  function cardBack() { return el("span", { class: "card back", role: "img", "aria-label": _("a card face down") }, ""); }

  // --- the live connection: one WebSocket a page, shared by every script of it (each adds its listener); a
  // snapshot on every change; reconnects by itself after a restart -------------------------------------------
  const listeners = [];
  let socket = null;
  let lastSnapshot = null;
  let up = false;
  function connect(onSnapshot, onStatus) {
    listeners.push({ onSnapshot, onStatus });
    if (lastSnapshot) onSnapshot(lastSnapshot);
    if (onStatus && socket) onStatus(up);
    if (socket) return;
    let wait = 250;
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/ws`);
      socket.onopen = () => {
        wait = 250;
        up = true;
        for (const l of listeners) if (l.onStatus) l.onStatus(true);
      };
      socket.onmessage = (event) => {
        const data = JSON.parse(event.data);
        if (!data.state) return;
        lastSnapshot = data;
        for (const l of listeners) l.onSnapshot(data);
      };
      socket.onclose = () => {
        up = false;
        for (const l of listeners) if (l.onStatus) l.onStatus(false);
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
    if (!response.ok) throw refusal(response.status, data);
    return data;
  }

  // A refused request as the page acts on it: the HTTP status (401: the control token is wanted) and the code
  // the server gives, with the server's words to show.
  function refusal(status, data) {
    const problem = new Error(data.error || fmt(_("the board answered {status}"), { status }));
    problem.status = status;
    problem.code = data.code || null;
    return problem;
  }
  const needsToken = (problem) => problem.status === 401;

  // --- the board: the SVG once per layout, then each frame recolours its holes ----------------------------
  // The pegs come as data (`snapshot.pegs`: each side's front and back LED); a back peg is drawn as a ring in
  // its side's colour so it is not taken for an empty hole.
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
    const pegs = new Map();
    for (const peg of snapshot.pegs) {
      pegs.set(peg.back, { side: peg.side, back: true });
      pegs.set(peg.front, { side: peg.side, back: false });  // a front peg on its back peg's hole: the front
    }
    const fronts = [];
    const frame = snapshot.frame;
    for (let led = 0; led < frame.length; led++) {
      const hole = document.getElementById(`led-${led}`);
      if (!hole) continue;
      const peg = pegs.get(led);
      hole.classList.remove("peg", "back");
      hole.style.stroke = "";
      hole.style.fill = frame[led] || "";
      hole.setAttribute("r", frame[led] || peg ? "3.4" : "2");
      if (!peg) continue;
      hole.classList.add("peg");
      if (peg.back) {
        hole.classList.add("back");
        hole.style.stroke = snapshot.colours[peg.side];
      } else {
        fronts[peg.side] = hole;
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

  // A side's score; `dealer`: who deals the deal on show (the state may have moved on to the next deal).
  function scoreLine(snapshot, side, i, dealer = snapshot.state.dealer) {
    const state = snapshot.state;
    return el("span", { class: "side" + (state.turn && side.players.includes(state.turn) ? " turn" : "") },
      el("span", { class: "dot", style: `background:${snapshot.colours[i]}` }),
      `${side.name} `, el("b", {}, String(side.score)),
      state.rules.match_target ? " " + fmt(_("(match {points} of {target})"), { points: side.match_points, target: state.rules.match_target }) : "",
      dealer && side.players.includes(dealer) ? el("span", { class: "tag" }, _("deals")) : null);
  }

  // The scores said in this deal, or in the last one until this one scores; and their heading.
  function recentEvents(state) {
    const now = state.events.filter((e) => e.deal === state.deal);
    return now.length ? [now, false] : [state.events.filter((e) => e.deal === state.deal - 1), true];
  }

  // A score as a player says it: who (the hand or crib counted, else the player), then the count in the player's
  // words and its notes: "Ann: a run of three is three", "Bob's hand: fifteen two, and a pair is four".
  function eventLine(e) {
    const who = e.kind === "hand" || e.kind === "crib" ? e.name : e.player;
    return [who ? el("b", {}, `${who}: `) : null, el("span", { class: "words" }, e.said || fmt(_("pegs {points}"), { points: e.points })),
      e.claimed !== null && e.claimed !== undefined ? el("span", { class: "tag" }, fmt(_("claimed {points}"), { points: e.claimed })) : null];
  }
  const eventItem = (e) => el("li", {}, ...eventLine(e));

  // What a score was for, in the page's words: its items' kinds (a pair, fifteen, a run of 3...), else its kind.
  const ITEM_WORDS = { fifteen: N_("fifteen"), "thirty-one": N_("thirty-one"), pair: N_("a pair"), "pair royal": N_("a pair royal"),
    "double pair royal": N_("a double pair royal"), run: N_("a run of {n}"), flush: N_("a flush"), nobs: N_("his nobs"), go: N_("the go"),
    "last card": N_("the last card"), "his heels": N_("his heels"), muggins: N_("muggins"), pegged: N_("points pegged by hand"),
    "three for last": N_("three for last") };
  const KIND_WORDS = { go: N_("the go"), last_card: N_("the last card"), heels: N_("his heels"), muggins: N_("muggins"),
    pegged: N_("points pegged by hand"), three_for_last: N_("three for last") };
  function scoredFor(e) {
    const items = (e.items || []).map((item) => ITEM_WORDS[item.kind] ? fmt(_(ITEM_WORDS[item.kind]), { n: item.cards.length }) : null).filter(Boolean);
    return items.length ? items.join(", ") : KIND_WORDS[e.kind] ? _(KIND_WORDS[e.kind]) : "";
  }

  // A score with the side's running total, as the live region says it: "Pro pegs 2 for a pair: 34"; at the show
  // which hand or crib it is: "Guest's crib: Guest pegs 4: 40".
  function scoreWords(e, total, sideName) {
    const who = e.player || sideName;
    if (e.kind === "hand" || e.kind === "crib") {
      const whose = fmt(e.kind === "hand" ? _("{player}'s hand") : _("{player}'s crib"), { player: who });
      return fmt(_("{whose}: {player} pegs {points}: {total}"), { whose, player: who, points: e.points, total });
    }
    const what = scoredFor(e);
    return what ? fmt(_("{player} pegs {points} for {what}: {total}"), { player: who, points: e.points, what, total })
      : fmt(_("{player} pegs {points}: {total}"), { player: who, points: e.points, total });
  }

  // Each event of the game with the side's total after it.
  function runningTotals(state) {
    const totals = state.sides.map(() => 0);
    return state.events.map((e) => { if (e.side !== null && e.side !== undefined) totals[e.side] += e.points; return totals[e.side] ?? 0; });
  }

  // What a screen reader hears (an aria-live region): each new score with the side's running total, the card
  // a computer played and the count. From the table's story (`snapshot.story`: typed facts, numbered) when the
  // snapshot carries it, else from the game's events.
  let heard = null;
  function announce(region, snapshot) {
    const state = snapshot.state;
    const said = snapshot.story ? toldSince(snapshot) : seenSince(snapshot);
    heard = { events: state.events.length, count: state.count, played: state.played.length, deal: state.deal, game: state.game,
      story: snapshot.story ? snapshot.story.count : 0 };
    if (said.length) region.textContent = said.join(". ");
  }

  function toldSince(snapshot) {
    const said = [];
    const you = snapshot.you;
    if (heard === null) return said;
    for (const fact of snapshot.story.facts.filter((f) => f.n > heard.story)) {
      if (fact.type === "played" && !(you && fact.player === you.person)) {
        said.push(fmt(_("{player} plays {card}, count {count}"), { player: fact.player, card: cardName(fact.card), count: fact.count }));
      } else if (fact.type === "go" && !(you && fact.player === you.person)) {
        said.push(fmt(_("{player} says go"), { player: fact.player }));
      } else if (fact.type === "scored") {
        const side = snapshot.state.sides[fact.side];
        said.push(scoreWords(fact, fact.total, side ? side.name : ""));
      }
    }
    const state = snapshot.state;
    if (state.phase === "play" && state.count !== heard.count && !said.length) said.push(fmt(_("count {count}"), { count: state.count }));
    return said;
  }

  function seenSince(snapshot) {
    const state = snapshot.state;
    const said = [];
    if (heard === null || heard.game !== state.game) return said;
    const totals = runningTotals(state);
    for (const p of state.played.slice(heard.deal === state.deal ? heard.played : 0)) {
      if (snapshot.you && p.player !== snapshot.you.person) said.push(fmt(_("{player} plays {card}"), { player: p.player, card: cardName(p.card) }));
    }
    state.events.forEach((e, i) => {
      if (i < heard.events) return;
      const side = state.sides[e.side];
      said.push(scoreWords(e, totals[i], side ? side.name : ""));
    });
    if (state.phase === "play" && (state.count !== heard.count || said.length)) said.push(fmt(_("count {count}"), { count: state.count }));
    return said;
  }

  // The last card a computer played this deal, and the count it made when the story says it.
  function lastCard(snapshot) {
    const you = snapshot.you;
    const state = snapshot.state;
    const theirs = you ? state.played.filter((p) => p.player !== you.person) : [];
    const last = theirs[theirs.length - 1];
    if (!last) return null;
    const told = snapshot.story ? snapshot.story.facts.filter((f) => f.type === "played" && f.player === last.player
      && f.card.code === last.card.code) : [];
    return { player: last.player, card: last.card, count: told.length ? told[told.length - 1].count : null };
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

  return { el, cardFace, cardBack, cardName, connect, post, needsToken, token, setToken, drawBoard, scoreLine, recentEvents,
    eventItem, eventLine, announce, lastCard, runningTotals, scoreWords, num, day, gameName, SUITS };
})();
