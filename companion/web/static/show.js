// The show of a game against the computer: after the play, the starter and each hand in counting order (pone,
// dealer, crib) face up, counted as said, with the points pegged; the deck deals again only after Continue (the
// OK key; Enter too). At the game's end the show stays, with the winner and Play again with the same settings.
// Everything comes as facts in the snapshot: `you.show` says which deal and whether the deck waits; the deal's
// `show` (in `state.deals`) holds each hand's cards and count, the events its pegging.
"use strict";

const Show = (() => {
  const { el, cardFace, post } = Crib;
  const $ = (id) => document.getElementById(id);
  let waiting = false;

  async function send(path, body) {
    try {
      await post(path, body);
    } catch (problem) {
      $("show-problem").textContent = problem.message;
    }
  }

  // What a count pegged, when that is not its whole count: the points a winning hand needed, or a claim's (the
  // show's presenter says which: `show.hands`, in the order of the deal's `show`; play/present.py).
  function pegged(item, show) {
    const { note } = show.hands.find((h) => h.counted.kind === item.kind && h.counted.player === item.player);
    if (note === "not_counted") return _("not counted: the game was over");
    if (note === null) return "";
    return note === "needed" ? fmt(_("needed {points}"), { points: item.points })
      : fmt(_("pegged {points}"), { points: item.points });
  }

  // Whose hand or crib, in the page's words.
  const whose = (item, snapshot) => fmt(item.kind === "crib" ? _("{player}'s crib") : _("{player}'s hand"), { player: item.player });

  function hand(item, record, show, state, snapshot) {
    const note = pegged(item, show, state);
    return el("div", { class: `show-hand kind-${item.kind}`, "data-kind": item.kind, "data-player": item.player },
      el("h3", {}, `${whose(item, snapshot)} `, el("b", { class: "show-total" }, String(item.total)),
        note ? el("span", { class: "tag show-note" }, note) : null),
      el("div", { class: "show-cards" }, item.cards.map((c) => cardFace(c)),
        el("span", { class: "show-plus" }, "+"), cardFace(record.starter, { class: "card starter" })),
      el("ol", { class: "show-said" }, item.said.map((phrase) => el("li", {}, phrase))),
      item.lines.length ? el("p", { class: "show-lines" }, item.lines.join(" · ")) : null);
  }

  function render(snapshot) {
    const box = $("show");
    const you = snapshot.you;
    const show = you && you.show;
    const state = snapshot.state;
    const record = show && state.deals[show.deal - 1];
    box.hidden = !record || !(record.starter || show.over);  // a game won by pegs before the starter: its end
    if (box.hidden) {
      waiting = false;
      return;
    }
    box.classList.toggle("over", show.over);  // the game's end: the winner and Play again first
    $("show-title").textContent = show.over ? _("The show and the game's end") : fmt(_("The show of deal {deal}"), { deal: show.deal });
    $("show-starter").replaceChildren(...(record.starter ? [el("span", { class: "label" }, _("Starter")), cardFace(record.starter),
      el("span", { class: "show-dealer" }, fmt(_("{dealer} dealt"), { dealer: record.dealer }))] : []));
    $("show-hands").replaceChildren(...record.show.map((item) => hand(item, record, show, state, snapshot)));
    $("show-hands").classList.toggle("many", record.show.length > 4);  // four players: five to count, closer
    const pegging = state.events.filter((e) => e.deal === show.deal && (e.kind === "last_card" || e.kind === "go"));
    const last = pegging.filter((e) => e.kind === "last_card");
    $("show-last").replaceChildren(...last.map((e) => el("span", {}, ...Crib.eventLine(e))));
    const end = [];
    if (show.over) {
      end.push(el("b", {}, snapshot.prompt));
      if (state.skunk) end.push(el("span", { class: "tag" }, state.skunk === "double skunk" ? _("double skunk") : _("skunk")));
    }
    $("show-end").replaceChildren(...end);
    const nextInMatch = show.over && state.phase === "game over" && state.rules.match_target && state.match_winner === null;
    $("show-continue").hidden = !show.waiting;
    $("next-game").hidden = !nextInMatch;
    $("play-again").hidden = !show.over || nextInMatch;
    waiting = show.waiting;  // the board page puts the focus on Continue (or Play again)
  }

  function playAgain() {
    const settings = latestSettings;
    if (!settings) return;
    send("/api/computer-game", { ...settings, seed: Math.floor(Math.random() * 1e9) });
  }

  let latestSettings = null;
  function remember(snapshot) {
    latestSettings = snapshot.you ? snapshot.you.settings : null;
    render(snapshot);
  }

  $("show-continue").addEventListener("click", () => send("/api/entry", { text: "ok" }));
  $("next-game").addEventListener("click", () => send("/api/entry", { text: "new" }));
  $("play-again").addEventListener("click", playAgain);
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target && (target.closest("input, select, textarea, button, summary, a, [role=button]"));
    if (event.key === "Enter" && waiting && !typing) {
      event.preventDefault();
      send("/api/entry", { text: "ok" });
    }
  });
  return { render: remember };
})();
